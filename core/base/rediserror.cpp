// SPDX-License-Identifier: Apache-2.0
#include "base/rediserror.h"

namespace lockscope {

QString errorKindName(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::None:
        return QStringLiteral("none");
    case ErrorKind::InvalidUrl:
        return QStringLiteral("invalid-url");
    case ErrorKind::InvalidConfig:
        return QStringLiteral("invalid-config");
    case ErrorKind::InvalidArgument:
        return QStringLiteral("invalid-argument");
    case ErrorKind::Refused:
        return QStringLiteral("refused");
    case ErrorKind::HostNotFound:
        return QStringLiteral("host-not-found");
    case ErrorKind::AuthFailed:
        return QStringLiteral("auth-failed");
    case ErrorKind::TlsFailure:
        return QStringLiteral("tls-failure");
    case ErrorKind::Timeout:
        return QStringLiteral("timeout");
    case ErrorKind::Protocol:
        return QStringLiteral("protocol-error");
    case ErrorKind::ConnectionLost:
        return QStringLiteral("connection-lost");
    case ErrorKind::NotConnected:
        return QStringLiteral("not-connected");
    case ErrorKind::ServerError:
        return QStringLiteral("server-error");
    case ErrorKind::NoPermission:
        return QStringLiteral("no-permission");
    case ErrorKind::ReadOnlyMode:
        return QStringLiteral("read-only");
    case ErrorKind::NotALock:
        return QStringLiteral("not-a-lock");
    case ErrorKind::Cancelled:
        return QStringLiteral("cancelled");
    case ErrorKind::Io:
        return QStringLiteral("io-error");
    case ErrorKind::ReplyTooLarge:
        return QStringLiteral("reply-too-large");
    }
    return QStringLiteral("unknown");
}

QString RedisError::toString() const
{
    if (master.isEmpty())
        return message;
    return master + QStringLiteral(": ") + message;
}

} // namespace lockscope
