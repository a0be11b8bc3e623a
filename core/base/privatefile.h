// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/filedescriptor.h"
#include "base/rediserror.h"

#include <QByteArray>
#include <QString>

namespace lockscope {

// The rules for a file that says who held or changed which lock (the audit log, the flight
// recording): created 0600 in directories created 0700, opened with O_NOFOLLOW (a symbolic link
// planted in its place is refused), and an existing one must be a regular file that its user owns
// and that group and others can neither read nor write, unless the user said it may be shared.
// One place for the checks, so that both files keep the same ones.
namespace PrivateFile {

struct Rules
{
    QString label;     // "audit log": the errors read "audit log PATH: ..."
    QString purpose;   // "it records who changed which lock"
    QString allowHint; // how the user allows a shared file: "--allow-shared-audit-log"
    bool allowShared = false;
};

// Opens `path` with `flags` (O_NOFOLLOW and O_CLOEXEC added; O_CREAT makes it 0600, after its
// missing directories, 0700) and checks it; an invalid descriptor with `error` set otherwise.
FileDescriptor open(const QString& path, int flags, const Rules& rules, RedisError* error);
// Replaces `path` with `bytes` in one step (a temporary file beside it, renamed over it), the result
// readable and writable by its owner only, also where it replaces a file others could read: an
// export holds tokens. False with `error` saying why otherwise; an existing file is then unchanged.
bool saveOwnerOnly(const QString& path, const QByteArray& bytes, QString* error);
// mkdir -p with 0700 for every directory it creates (the XDG rule); existing ones are left alone.
bool makeDirectories(const QString& dir);
// Why `mode` is too open ("readable by group and others (mode 0644)"), or an empty string.
QString sharedProblem(uint mode);

} // namespace PrivateFile

} // namespace lockscope
