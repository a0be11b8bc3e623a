// SPDX-License-Identifier: Apache-2.0
#include "base/privatefile.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>

namespace lockscope {

namespace {

constexpr mode_t sharedBits = S_IRWXG | S_IRWXO;

QString modeText(mode_t mode)
{
    return QStringLiteral("0%1").arg(uint(mode & 07777), 3, 8, QLatin1Char('0'));
}

RedisError privateFileError(const PrivateFile::Rules& rules, const QString& path, const QString& what)
{
    return {ErrorKind::Io, QString(), QStringLiteral("%1 %2: %3").arg(rules.label, path, what)};
}

QString systemText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

} // namespace

QString PrivateFile::sharedProblem(uint mode)
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

bool PrivateFile::saveOwnerOnly(const QString& path, const QByteArray& bytes, QString* error)
{
    QSaveFile file(path);
    // The temporary file takes the old file's mode when it opens; set it after that.
    if (file.open(QIODevice::WriteOnly) &&
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) &&
        file.write(bytes) == bytes.size() && file.commit())
        return true;
    *error = file.errorString();
    return false;
}

bool PrivateFile::makeDirectories(const QString& dir)
{
    if (QFileInfo(dir).isDir())
        return true;
    const QString parent = QFileInfo(dir).absolutePath();
    if (parent != dir && !makeDirectories(parent))
        return false;
    const QByteArray name = QFile::encodeName(dir);
    return ::mkdir(name.constData(), 0700) == 0 || errno == EEXIST;
}

FileDescriptor PrivateFile::open(const QString& path, int flags, const Rules& rules, RedisError* error)
{
    if (path.isEmpty()) {
        *error = {ErrorKind::Io, QString(), QStringLiteral("no %1 path").arg(rules.label)};
        return {};
    }
    if (flags & O_CREAT) {
        const QString dir = QFileInfo(path).absolutePath();
        if (!makeDirectories(dir)) {
            *error = privateFileError(
                rules, path, QStringLiteral("cannot create directory %1: %2").arg(dir, systemText(errno)));
            return {};
        }
    }
    const QByteArray name = QFile::encodeName(path);
    int raw;
    do
        raw = ::open(name.constData(), flags | O_CLOEXEC | O_NOFOLLOW, 0600);
    while (raw < 0 && errno == EINTR);
    FileDescriptor fd(raw);
    if (!fd.isValid()) {
        *error =
            errno == ELOOP
                ? privateFileError(rules, path, QStringLiteral("is a symbolic link; refusing to follow it"))
                : privateFileError(rules, path, QStringLiteral("cannot open: %1").arg(systemText(errno)));
        return {};
    }
    struct stat info = {};
    QString why;
    if (::fstat(fd.get(), &info) != 0)
        why = QStringLiteral("cannot read its permissions: %1").arg(systemText(errno));
    else if (!S_ISREG(info.st_mode))
        why = QStringLiteral("is not a regular file");
    else if (!rules.allowShared && info.st_uid != ::geteuid())
        why = QStringLiteral("is owned by another user (uid %1): %2. Use a file of your own, or allow a "
                             "shared %3 (%4)")
                  .arg(info.st_uid)
                  .arg(rules.purpose, rules.label, rules.allowHint);
    else if ((info.st_mode & sharedBits) && !rules.allowShared)
        why = sharedProblem(info.st_mode) + QStringLiteral(": %1. chmod 600 it, or allow a shared %2 (%3)")
                                                .arg(rules.purpose, rules.label, rules.allowHint);
    if (!why.isEmpty()) {
        *error = privateFileError(rules, path, why);
        return {};
    }
    return fd;
}

} // namespace lockscope
