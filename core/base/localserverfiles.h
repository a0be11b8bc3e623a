// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

namespace lockscope {

// What a locally launched redis-server or redis-sentinel (the demo's, the tests') is started with: a
// configuration file (only the owner can read it: it holds the password) instead of arguments (any
// local user can read a process's arguments), a random password, and the log that says why a server
// exited at once. In base/ rather than demo/ because tests/support launches servers with it too.
namespace LocalServerFiles {

// 32 hex digits from the system's random source.
QString newPassword();
// `text` as a double-quoted redis.conf value: a path with spaces or quotes stays one argument.
QByteArray quoted(const QString& text);
// redis.conf lines of a throw-away server on 127.0.0.1:`port` (protected mode, no persistence,
// keyspace notifications on) in `dir`, logging to dir/redis.log and requiring `password`.
QByteArray serverConfig(quint16 port, const QString& dir, const QString& password);
// Writes `text` to `path`, readable and writable by the owner only.
bool writePrivate(const QString& path, const QByteArray& text, QString* error);
// Whether the server that wrote `logPath` could not listen because its port was taken.
bool portWasTaken(const QString& logPath);
// The last line of `logPath` (what a server says before it exits), escaped, `secret` left out;
// empty if none.
QString lastLine(const QString& logPath, const QString& secret);

} // namespace LocalServerFiles

} // namespace lockscope
