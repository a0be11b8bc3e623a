// SPDX-License-Identifier: Apache-2.0
#include "connection/connectionhandshake.h"

#include "base/bytesdisplay.h"
#include "base/monotonicclock.h"

#include <QDateTime>

#include <algorithm>

namespace lockscope {

namespace {

bool isAuthError(const RedisReply& reply)
{
    const QByteArray code = reply.errorCode();
    return code == "NOAUTH" || code == "WRONGPASS" ||
           (code == "ERR" && reply.string.contains("invalid password"));
}

std::optional<ConnectionHandshake::Failure> accept(const RedisReply&)
{
    return std::nullopt;
}

} // namespace

void ConnectionHandshake::readInfoServer(const QByteArray& info, MasterHealth* health)
{
    health->runId = infoField(info, "run_id");
    health->redisVersion = escapeBytes(infoField(info, "redis_version"));
    // A name is a word: anything else is not taken as one (the server's bytes reach a label).
    const QByteArray name = infoField(info, "server_name").toLower();
    const bool named =
        !name.isEmpty() && name.size() <= 32 && std::all_of(name.cbegin(), name.cend(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        });
    health->server = named ? QString::fromLatin1(name) : QStringLiteral("redis");
    const QByteArray own = named ? infoField(info, QByteArray(name + "_version")) : QByteArray();
    health->version = own.isEmpty() ? health->redisVersion : escapeBytes(own);
}

QByteArray ConnectionHandshake::infoField(const QByteArray& info, const QByteArray& name)
{
    const QByteArray needle = name + ':';
    qsizetype start = -1;
    if (info.startsWith(needle))
        start = needle.size();
    else if (const qsizetype at = info.indexOf(QByteArray('\n' + needle)); at >= 0)
        start = at + 1 + needle.size();
    if (start < 0)
        return {};
    qsizetype end = info.indexOf('\n', start);
    if (end < 0)
        end = info.size();
    return info.mid(start, end - start).trimmed();
}

std::vector<ConnectionHandshake::Step> ConnectionHandshake::steps(const ConnectionOptions& options,
                                                                  MasterHealth* health)
{
    std::vector<Step> out;
    const RedisUrl& url = options.url;
    if (!url.user().isEmpty()) {
        // A named user is always who we are, never `default` by omission. Without a password this
        // is AUTH user "": a `nopass` user accepts any password (Redis 6+), any other user refuses
        // it. Any error fails the connection, also one that is not WRONGPASS (a server before 6
        // knows no users: "wrong number of arguments").
        out.push_back({{"AUTH", url.user().toUtf8(), url.password().toUtf8()},
                       [user = url.user()](const RedisReply& reply) -> std::optional<Failure> {
                           if (!reply.isError())
                               return std::nullopt;
                           return Failure{ErrorKind::AuthFailed,
                                          QStringLiteral("authentication as user %1 failed: %2")
                                              .arg(user, QString::fromUtf8(reply.string))};
                       }});
    } else if (!url.password().isEmpty()) {
        out.push_back({{"AUTH", url.password().toUtf8()}, accept});
    }
    if (url.db() != 0) {
        out.push_back({{"SELECT", QByteArray::number(url.db())},
                       [db = url.db()](const RedisReply& reply) -> std::optional<Failure> {
                           if (!reply.isError())
                               return std::nullopt;
                           return Failure{
                               ErrorKind::ServerError,
                               QStringLiteral("SELECT %1 failed: %2").arg(db).arg(escapeBytes(reply.string))};
                       }});
    }
    if (!options.clientName.isEmpty())
        out.push_back({{"CLIENT", "SETNAME", options.clientName}, accept});
    out.push_back({{"INFO", "server"}, [health](const RedisReply& reply) -> std::optional<Failure> {
                       if (reply.isString())
                           readInfoServer(reply.string, health);
                       return std::nullopt;
                   }});
    out.push_back({{"INFO", "replication"}, [health](const RedisReply& reply) -> std::optional<Failure> {
                       if (reply.isString())
                           health->role = escapeBytes(infoField(reply.string, "role"));
                       return std::nullopt;
                   }});
    const qint64 sentWallMs = QDateTime::currentMSecsSinceEpoch();
    const qint64 sentNs = monotonicNs();
    out.push_back({{"TIME"}, [health, sentWallMs, sentNs](const RedisReply& reply) -> std::optional<Failure> {
                       if (reply.isArray() && reply.elements.size() == 2) {
                           const double rttMs = double(monotonicNs() - sentNs) / 1e6;
                           const qint64 serverMs = reply.elements[0].string.toLongLong() * 1000 +
                                                   reply.elements[1].string.toLongLong() / 1000;
                           health->clockOffsetMs = serverMs - (sentWallMs + qint64(rttMs / 2));
                           health->clockOffsetKnown = true;
                           health->latencyMs = rttMs;
                       }
                       return std::nullopt;
                   }});
    // Last, so that TIME's round trip is not lengthened by it.
    out.push_back(
        {CompareDeleteProbe::command(), [health](const RedisReply& reply) -> std::optional<Failure> {
             health->compareDelete = CompareDeleteProbe::read(reply);
             return std::nullopt;
         }});
    // Whatever the step, a refused login fails the connection as such (an AUTH without a user that
    // is refused, or a NOAUTH to a later step when no password was given).
    for (Step& step : out)
        step.onReply = [onReply =
                            std::move(step.onReply)](const RedisReply& reply) -> std::optional<Failure> {
            if (reply.isError() && isAuthError(reply))
                return Failure{ErrorKind::AuthFailed,
                               QStringLiteral("authentication failed: ") + escapeBytes(reply.string)};
            return onReply(reply);
        };
    return out;
}

} // namespace lockscope
