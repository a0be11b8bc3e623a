// SPDX-License-Identifier: Apache-2.0
#include "audit/auditlog.h"

#include "audit/teamauditlog.h"
#include "base/privatefile.h"

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

QString AuditLog::demoPath()
{
    return QFileInfo(defaultPath()).absolutePath() + QStringLiteral("/demo-audit.jsonl");
}

QString AuditLog::legacyDefaultPath()
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.local/share");
    return dir + QStringLiteral("/lockscope/audit.jsonl");
}

FileDescriptor AuditLog::open(RedisError* error) const
{
    const PrivateFile::Rules rules{QStringLiteral("audit log"),
                                   QStringLiteral("it records who changed which lock"),
                                   QStringLiteral("--allow-shared-audit-log"), m_allowShared};
    return PrivateFile::open(m_path, O_RDWR | O_APPEND | O_CREAT, rules, error);
}

RedisError AuditLog::check() const
{
    RedisError error;
    const FileDescriptor fd = open(&error);
    if (!error.isError() && m_team)
        return m_team->check();
    return error;
}

QString AuditLog::permissionProblem() const
{
    struct stat info = {};
    if (::stat(QFile::encodeName(m_path).constData(), &info) != 0)
        return {};
    return PrivateFile::sharedProblem(info.st_mode);
}

RedisError AuditLog::append(const AuditRecord& record) const
{
    RedisError error;
    const FileDescriptor fd = open(&error);
    if (!fd.isValid())
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
    if (m_team)
        if (RedisError team = m_team->append(record); team.isError()) {
            team.message =
                QStringLiteral("recorded in %1 but not in the team database: %2").arg(m_path, team.message);
            return team;
        }
    return {};
}

} // namespace lockscope
