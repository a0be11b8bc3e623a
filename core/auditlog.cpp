#include "auditlog.h"

#include <QDir>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace lockscope {

namespace {

RedisError ioError(const QString& path, const QString& what)
{
    return {
        ErrorKind::Io, QString(),
        QStringLiteral("audit log %1: %2: %3").arg(path, what, QString::fromLocal8Bit(std::strerror(errno)))};
}

int openForAppend(const QString& path)
{
    const QByteArray name = QFile::encodeName(path);
    int fd;
    do
        fd = ::open(name.constData(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    while (fd < 0 && errno == EINTR);
    return fd;
}

} // namespace

AuditLog::AuditLog(QString path) : m_path(std::move(path)) {}

RedisError AuditLog::check() const
{
    if (m_path.isEmpty())
        return {ErrorKind::Io, QString(), QStringLiteral("no audit log path")};
    const QString dir = QFileInfo(m_path).absolutePath();
    if (!QDir().mkpath(dir))
        return {ErrorKind::Io, QString(),
                QStringLiteral("audit log %1: cannot create directory %2").arg(m_path, dir)};
    const int fd = openForAppend(m_path);
    if (fd < 0)
        return ioError(m_path, QStringLiteral("cannot open for appending"));
    ::close(fd);
    return {};
}

RedisError AuditLog::append(const AuditRecord& record) const
{
    if (const RedisError error = check(); error.isError())
        return error;
    const int fd = openForAppend(m_path);
    if (fd < 0)
        return ioError(m_path, QStringLiteral("cannot open for appending"));
    const QByteArray line = record.toJson() + '\n';
    // One write for the whole line: O_APPEND makes it land at the end even when another process
    // appends at the same moment. A short write on a regular file means the disk is full.
    ssize_t written;
    do
        written = ::write(fd, line.constData(), size_t(line.size()));
    while (written < 0 && errno == EINTR);
    if (written != ssize_t(line.size())) {
        const RedisError error = ioError(m_path, QStringLiteral("cannot append"));
        ::close(fd);
        return error;
    }
    if (::fsync(fd) != 0) {
        const RedisError error = ioError(m_path, QStringLiteral("cannot fsync"));
        ::close(fd);
        return error;
    }
    ::close(fd);
    return {};
}

} // namespace lockscope
