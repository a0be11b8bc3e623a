#include "audit/auditlog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lockscope {

namespace {

constexpr mode_t sharedBits = S_IRWXG | S_IRWXO;

// Closes on every way out.
class Descriptor
{
public:
    explicit Descriptor(int fd) : m_fd(fd) {}
    ~Descriptor()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return m_fd; }

private:
    int m_fd;
};

RedisError ioError(const QString& path, const QString& what, int error = errno)
{
    return {
        ErrorKind::Io, QString(),
        QStringLiteral("audit log %1: %2: %3").arg(path, what, QString::fromLocal8Bit(std::strerror(error)))};
}

RedisError problem(const QString& path, const QString& what)
{
    return {ErrorKind::Io, QString(), QStringLiteral("audit log %1: %2").arg(path, what)};
}

QString modeText(mode_t mode)
{
    return QStringLiteral("0%1").arg(uint(mode & 07777), 3, 8, QLatin1Char('0'));
}

QString sharedProblem(mode_t mode)
{
    const bool group = mode & S_IRWXG;
    const bool others = mode & S_IRWXO;
    if (!group && !others)
        return {};
    const bool writable = mode & (S_IWGRP | S_IWOTH);
    const QString who = group && others ? QStringLiteral("group and others")
                        : group         ? QStringLiteral("its group")
                                        : QStringLiteral("others");
    return QStringLiteral("%1 by %2 (mode %3)")
        .arg(writable ? QStringLiteral("readable or writable") : QStringLiteral("readable"), who,
             modeText(mode));
}

// mkdir -p with 0700 for every directory it creates (the XDG rule); existing ones are left alone.
bool makeDirectories(const QString& dir)
{
    if (QFileInfo(dir).isDir())
        return true;
    const QString parent = QFileInfo(dir).absolutePath();
    if (parent != dir && !makeDirectories(parent))
        return false;
    const QByteArray name = QFile::encodeName(dir);
    return ::mkdir(name.constData(), 0700) == 0 || errno == EEXIST;
}

} // namespace

AuditLog::AuditLog(QString path, bool allowShared) : m_path(std::move(path)), m_allowShared(allowShared) {}

QString AuditLog::defaultPath()
{
    // The spec: a relative value is invalid and must be ignored.
    QString base = QFile::decodeName(qgetenv("XDG_STATE_HOME"));
    if (base.isEmpty() || !QDir::isAbsolutePath(base))
        base = QDir::homePath() + QStringLiteral("/.local/state");
    return base + QStringLiteral("/lockscope/audit.jsonl");
}

QString AuditLog::legacyDefaultPath()
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.local/share");
    return dir + QStringLiteral("/lockscope/audit.jsonl");
}

int AuditLog::open(RedisError* error) const
{
    if (m_path.isEmpty()) {
        *error = {ErrorKind::Io, QString(), QStringLiteral("no audit log path")};
        return -1;
    }
    const QString dir = QFileInfo(m_path).absolutePath();
    if (!makeDirectories(dir)) {
        *error = ioError(m_path, QStringLiteral("cannot create directory %1").arg(dir));
        return -1;
    }
    const QByteArray name = QFile::encodeName(m_path);
    int fd;
    do
        fd = ::open(name.constData(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        *error = errno == ELOOP ? problem(m_path, QStringLiteral("is a symbolic link; refusing to follow it"))
                                : ioError(m_path, QStringLiteral("cannot open for appending"));
        return -1;
    }
    struct stat info = {};
    QString why;
    if (::fstat(fd, &info) != 0)
        why = QStringLiteral("cannot read its permissions: %1")
                  .arg(QString::fromLocal8Bit(std::strerror(errno)));
    else if (!S_ISREG(info.st_mode))
        why = QStringLiteral("is not a regular file");
    else if ((info.st_mode & sharedBits) && !m_allowShared)
        why = sharedProblem(info.st_mode) +
              QStringLiteral(": it records who changed which lock. chmod 600 it, or allow a shared audit log "
                             "(--allow-shared-audit-log)");
    if (!why.isEmpty()) {
        ::close(fd);
        *error = problem(m_path, why);
        return -1;
    }
    return fd;
}

RedisError AuditLog::check() const
{
    RedisError error;
    const Descriptor fd(open(&error));
    return error;
}

QString AuditLog::permissionProblem() const
{
    struct stat info = {};
    if (::stat(QFile::encodeName(m_path).constData(), &info) != 0)
        return {};
    return sharedProblem(info.st_mode);
}

RedisError AuditLog::append(const AuditRecord& record) const
{
    RedisError error;
    const Descriptor fd(open(&error));
    if (fd.get() < 0)
        return error;
    QByteArray line = record.toJson() + '\n';
    // (Read-write: the last byte is read.) An earlier append cut short (disk full, a file size limit) left a
    // line without its end: this record starts on a line of its own, so the torn one stays one unreadable
    // line and no record is merged into it. Two writers that both see it add an empty line, which readers
    // skip.
    struct stat info = {};
    if (::fstat(fd.get(), &info) == 0 && info.st_size > 0) {
        char last = '\n';
        if (::pread(fd.get(), &last, 1, info.st_size - 1) == 1 && last != '\n')
            line.prepend('\n');
    }
    // One write for the whole line: O_APPEND makes it land at the end even when another process
    // appends at the same moment. A short write on a regular file means the disk is full.
    ssize_t written;
    do
        written = ::write(fd.get(), line.constData(), size_t(line.size()));
    while (written < 0 && errno == EINTR);
    if (written < 0)
        return ioError(m_path, QStringLiteral("cannot append"));
    if (written != ssize_t(line.size()))
        return problem(m_path, QStringLiteral("cannot append: only %1 of %2 bytes written (disk full?)")
                                   .arg(written)
                                   .arg(line.size()));
    if (::fsync(fd.get()) != 0)
        return ioError(m_path, QStringLiteral("cannot fsync"));
    return {};
}

} // namespace lockscope
