// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>

namespace lockscope {

// A RESP2 reply as a value. Strings stay bytes: keys and tokens are binary-safe end to end.
struct RedisReply
{
    enum class Type : quint8
    {
        Nil,
        Status,
        Error,
        Integer,
        String,
        Array,
    };

    Type type = Type::Nil;
    qint64 integer = 0; // Integer; an array's: see keysLeftOut()
    QByteArray string;  // String, Status and Error payloads
    QList<RedisReply> elements;

    bool isNil() const { return type == Type::Nil; }
    bool isError() const { return type == Type::Error; }
    bool isString() const { return type == Type::String; }
    bool isInteger() const { return type == Type::Integer; }
    bool isArray() const { return type == Type::Array; }
    bool isStatus() const { return type == Type::Status; }
    // A SCAN page's key array: how many keys its ReplyKeyFilter left out as it was parsed.
    qint64 keysLeftOut() const { return isArray() ? integer : 0; }
    // The first word of an error reply: "NOSCRIPT", "WRONGTYPE", "NOPERM", ...
    QByteArray errorCode() const;
};

// What a command's callback receives: a transport-level error, or the server's reply
// (which may itself be an error reply such as WRONGTYPE).
struct RedisResult
{
    RedisError error;
    RedisReply reply;

    bool ok() const { return !error.isError(); }
    bool isServerError() const { return ok() && reply.isError(); }
    // Either failure as one error value; kind ServerError (or NoPermission) for error replies.
    RedisError anyError(const QString& master) const;
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::RedisReply)
