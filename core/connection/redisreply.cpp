// SPDX-License-Identifier: Apache-2.0
#include "connection/redisreply.h"

#include "base/bytesdisplay.h"

namespace lockscope {

QByteArray RedisReply::errorCode() const
{
    if (type != Type::Error)
        return {};
    const qsizetype space = string.indexOf(' ');
    return space < 0 ? string : string.left(space);
}

RedisError RedisResult::anyError(const QString& master) const
{
    if (error.isError())
        return error;
    if (!reply.isError())
        return {};
    const ErrorKind kind = reply.errorCode() == "NOPERM" ? ErrorKind::NoPermission : ErrorKind::ServerError;
    // The server's text is data (a key name or a script's error may be in it): escaped, like a key.
    return {kind, master, escapeBytes(reply.string)};
}

} // namespace lockscope
