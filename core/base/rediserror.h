// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>
#include <QString>

namespace lockscope {

// Why something failed, as a value the caller can branch on; the message is for people and
// always names the master (by its redacted URL) so that a line in a table or a log stands alone.
enum class ErrorKind
{
    None,
    InvalidUrl,
    InvalidConfig,
    InvalidArgument,
    Refused,
    HostNotFound,
    AuthFailed,
    TlsFailure,
    Timeout,
    Protocol,
    ConnectionLost,
    NotConnected,
    ServerError,
    NoPermission,
    ReadOnlyMode,
    NotALock,
    Cancelled,
    Io,
    ReplyTooLarge, // a reply over the connection's ReplyLimits
};

QString errorKindName(ErrorKind kind);

struct RedisError
{
    ErrorKind kind = ErrorKind::None;
    QString master;
    QString message;

    RedisError() = default;
    RedisError(ErrorKind k, QString masterName, QString text)
        : kind(k), master(std::move(masterName)), message(std::move(text))
    {}

    bool isError() const { return kind != ErrorKind::None; }
    explicit operator bool() const { return isError(); }
    // "master: message", or just the message when no master is involved.
    QString toString() const;
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::RedisError)
