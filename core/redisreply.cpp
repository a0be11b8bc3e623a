#include "redisreply.h"

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
    return {kind, master, QString::fromUtf8(reply.string)};
}

} // namespace lockscope
