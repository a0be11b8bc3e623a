// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "locking/redlocklease.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

#include <optional>

// lockctl's arguments, as every command that takes one reads it. Each parse returns the value, or
// nothing with `problem` set (a usage error, never a value silently rounded or guessed).
namespace lockctl {

// A RESOURCE or token argument, typed the way list and watch print it (escapeBytes: \xNN for a
// byte that is not printable UTF-8, \\ for a backslash), so any key that was shown can be named.
namespace BytesArgument {
// `what` names the argument in the message.
std::optional<QByteArray> parse(const QString& text, const QString& what, QString* problem);
} // namespace BytesArgument

// RESOURCE and --token of extend and release, both in the escaped form list prints: the lease they
// name (the problem is the first bad argument's).
namespace LeaseArgument {
std::optional<lockscope::RedlockLease> parse(const QString& resource, const QString& token, QString* problem);
} // namespace LeaseArgument

// A whole-number option (--retries, --max-size-mb, ...): digits only, from `min` to `max`. "10s",
// "1e4", "-5" and "" are usage errors.
namespace NumberArgument {
// `name` is the option's, without the dashes; `problem` may be null.
std::optional<qint64> parse(const QString& name, const QString& text, qint64 min, qint64 max,
                            QString* problem);
} // namespace NumberArgument

// --ttl MS as every writing command takes it: a whole, positive number of milliseconds up to 2^31-1.
namespace TtlArgument {
QCommandLineOption option();
std::optional<qint64> parse(const QString& text, QString* problem);
} // namespace TtlArgument

// A span of time as `history --since` and `record --max-age` take it: a whole number and a unit,
// "500ms", "90s", "15m", "2h", "7d". A bare number or another unit is a usage error (is "30" seconds
// or days?).
namespace DurationArgument {
// Milliseconds; `what` names the option in the message.
std::optional<qint64> parse(const QString& what, const QString& text, QString* problem);
// --since DURATION of history and incidents: the wall-clock time that far back, -1 when not given;
// nullopt (and `problem`) when the duration is bad.
std::optional<qint64> since(const QCommandLineParser& parser, QString* problem);
} // namespace DurationArgument

// --db FILE of list, record, history and serve: the flight recorder's file, by default the one in
// $XDG_STATE_HOME/lockscope/ (RecordingDatabase::defaultPath()).
namespace RecordingArgument {
QCommandLineOption option();
QString path(const QCommandLineParser& parser);
// --allow-shared-recording of record and serve: the writer accepts a recording that group or
// others can read or write, or that another user owns (as --allow-shared-audit-log does).
QCommandLineOption allowSharedOption();
bool allowShared(const QCommandLineParser& parser);
} // namespace RecordingArgument

} // namespace lockctl
