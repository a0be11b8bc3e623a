// SPDX-License-Identifier: Apache-2.0
#include "connection/keyrouter.h"

#include <QSet>

namespace lockscope {

bool KeyRouter::takesKeyFirst(const QByteArray& command)
{
    static const QSet<QByteArray> keyFirst{
        "SET",       "GET",    "DEL",      "UNLINK",   "EXISTS",  "TYPE",   "PTTL",   "TTL",   "PEXPIRE",
        "PEXPIREAT", "EXPIRE", "PERSIST",  "GETRANGE", "STRLEN",  "GETSET", "GETDEL", "SETNX", "INCR",
        "DECR",      "HLEN",   "HSCAN",    "HGET",     "HGETALL", "HSET",   "HDEL",   "ZCARD", "ZRANGE",
        "ZADD",      "ZREM",   "ZSCORE",   "ZSCAN",    "LLEN",    "LRANGE", "LPUSH",  "RPUSH", "LPOP",
        "RPOP",      "SCARD",  "SMEMBERS", "SSCAN",    "SADD",    "SREM",   "DUMP"};
    return keyFirst.contains(command.toUpper());
}

} // namespace lockscope
