// SPDX-License-Identifier: Apache-2.0
#include "support/keyrecognition.h"

#include "formats/lockformatrecognizer.h"
#include "support/redisserver.h"

#include <QDateTime>

namespace lockscope::test {

KeyObservation observeKey(const RedisServer& server, const QByteArray& key)
{
    KeyObservation o;
    o.type = server.command({"TYPE", key}).string;
    o.present = !o.type.isEmpty() && o.type != "none";
    if (!o.present) {
        o.type.clear();
        return o;
    }
    if (o.type == "string") {
        o.value = server.command({"GET", key}).string;
        o.valueSize = server.command({"STRLEN", key}).integer;
    } else if (o.type == "hash") {
        const RedisReply all = server.command({"HGETALL", key});
        for (qsizetype i = 0; i + 1 < all.elements.size(); i += 2)
            o.fields.append({all.elements[i].string, all.elements[i + 1].string});
        o.elementCount = server.command({"HLEN", key}).integer;
    } else if (o.type == "zset") {
        const RedisReply all = server.command({"ZRANGE", key, "0", "-1", "WITHSCORES"});
        for (qsizetype i = 0; i + 1 < all.elements.size(); i += 2)
            o.members.append({all.elements[i].string, all.elements[i + 1].string.toDouble()});
        o.elementCount = server.command({"ZCARD", key}).integer;
    } else if (o.type == "list") {
        o.elementCount = server.command({"LLEN", key}).integer;
    }
    o.pttlMs = server.command({"PTTL", key}).integer;
    return o;
}

RecognizedLock recognizeKey(const RedisServer& server, const QByteArray& key, KeyObservation* seen)
{
    const KeyObservation o = observeKey(server, key);
    if (seen)
        *seen = o;
    return LockFormatRecognizer::recognize(key, o, {}, QDateTime::currentMSecsSinceEpoch());
}

} // namespace lockscope::test
