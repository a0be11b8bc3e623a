// SPDX-License-Identifier: Apache-2.0
#include "topology/sentinelresolver.h"

#include "base/bytesdisplay.h"

#include "connection/redisconnection.h"
#include "topology/probeconnection.h"

namespace lockscope {

SentinelResolver::SentinelResolver(TopologyUrl url, ConnectionOptions nodeOptions, QObject* parent)
    : QObject(parent), m_url(std::move(url)), m_nodeOptions(std::move(nodeOptions))
{}

SentinelResolver::~SentinelResolver()
{
    dropConnection();
}

ConnectionOptions SentinelResolver::optionsFor(const ConnectionOptions& nodeOptions, const RedisUrl& url)
{
    ConnectionOptions options = nodeOptions;
    options.url = url;
    // One question, one answer: a short-lived connection that neither retries nor pings.
    options.autoReconnect = false;
    options.healthIntervalMs = 0;
    return options;
}

void SentinelResolver::resolve(int firstSentinel)
{
    ++m_generation;
    dropConnection();
    const int count = int(m_url.seeds().size());
    m_first = count > 0 ? ((firstSentinel % count) + count) % count : 0;
    m_tried = 0;
    m_unknownName = 0;
    m_unreachable = 0;
    m_lastTransportError = ErrorKind::None;
    m_reasons.clear();
    m_running = true;
    askSentinel();
}

void SentinelResolver::cancel()
{
    ++m_generation;
    m_running = false;
    dropConnection();
}

void SentinelResolver::dropConnection()
{
    dropProbeConnection(m_connection, this);
}

void SentinelResolver::askSentinel()
{
    const int count = int(m_url.seeds().size());
    if (m_tried >= count) {
        const QString name = QLatin1Char('\'') + m_url.masterName() + QLatin1Char('\'');
        const QString reasons = m_reasons.join(QStringLiteral("; "));
        if (m_unknownName > 0 && m_unknownName + m_unreachable == count)
            finish({ErrorKind::InvalidConfig, m_url.toString(),
                    tr("no sentinel knows a master named %1 (%2)").arg(name, reasons)});
        else if (m_unreachable == count)
            finish({m_lastTransportError, m_url.toString(), tr("no sentinel reachable (%1)").arg(reasons)});
        else
            finish({ErrorKind::ServerError, m_url.toString(),
                    tr("no verified primary for %1 (%2)").arg(name, reasons)});
        return;
    }
    m_current = (m_first + m_tried) % count;
    ++m_tried;
    const quint64 generation = ++m_generation;
    dropConnection();
    m_connection = new RedisConnection(optionsFor(m_nodeOptions, m_url.seedUrl(m_current)), this);
    m_connection->open();
    const QString sentinel = m_url.seeds().at(m_current).toString();
    m_connection->send({"SENTINEL", "get-master-addr-by-name", m_url.masterName().toUtf8()}, this,
                       [this, generation, sentinel](const RedisResult& result) {
                           if (generation != m_generation)
                               return;
                           if (!result.ok()) {
                               ++m_unreachable;
                               m_lastTransportError = result.error.kind;
                               nextSentinel(result.error.toString());
                               return;
                           }
                           const RedisReply& reply = result.reply;
                           if (reply.isNil()) {
                               ++m_unknownName;
                               nextSentinel(tr("sentinel %1 does not know it").arg(sentinel));
                               return;
                           }
                           if (reply.isError()) {
                               nextSentinel(
                                   tr("sentinel %1 answered %2").arg(sentinel, escapeBytes(reply.string)));
                               return;
                           }
                           bool ok = false;
                           const uint port = reply.elements.size() == 2 && reply.elements[0].isString()
                                                 ? reply.elements[1].string.toUInt(&ok)
                                                 : 0;
                           if (!ok || port == 0 || port > 65535) {
                               nextSentinel(tr("sentinel %1 gave a malformed address").arg(sentinel));
                               return;
                           }
                           verify({escapeBytes(reply.elements[0].string), quint16(port)});
                       });
}

void SentinelResolver::verify(const NodeAddress& candidate)
{
    const RedisUrl withCredentials = m_url.nodeUrl(candidate);
    if (withCredentials.user().isEmpty() && withCredentials.password().isEmpty()) {
        checkRole(candidate, withCredentials, false);
        return;
    }
    // The sentinel names an address, and the credentials would go there: ask ROLE without them
    // first. A server that wants AUTH even for ROLE (requirepass, `default` off, or a `default`
    // without +role) cannot be checked that way; it is asked again after AUTH (docs/manual/configuration.md,
    // "Credentials").
    RedisUrl anonymous = withCredentials;
    anonymous.setUser(QString());
    anonymous.setPassword(QString());
    checkRole(candidate, anonymous, true);
}

void SentinelResolver::checkRole(const NodeAddress& candidate, const RedisUrl& url, bool beforeAuth)
{
    const quint64 generation = ++m_generation;
    dropConnection();
    m_connection = new RedisConnection(optionsFor(m_nodeOptions, url), this);
    m_connection->open();
    const QString sentinel = m_url.seeds().at(m_current).toString();
    QPointer<RedisConnection> connection = m_connection;
    m_connection->send(
        {"ROLE"}, this,
        [this, generation, candidate, sentinel, connection, beforeAuth](const RedisResult& result) {
            if (generation != m_generation)
                return;
            const bool needsAuth =
                (!result.ok() && result.error.kind == ErrorKind::AuthFailed) ||
                (result.ok() && result.reply.isError() &&
                 (result.reply.errorCode() == "NOAUTH" || result.reply.errorCode() == "NOPERM"));
            if (beforeAuth && needsAuth) {
                checkRole(candidate, m_url.nodeUrl(candidate), false);
                return;
            }
            if (!result.ok()) {
                nextSentinel(tr("primary %1 named by sentinel %2 did not answer ROLE: %3")
                                 .arg(candidate.toString(), sentinel, result.error.message));
                return;
            }
            // ROLE may be refused by an ACL; the role from the connection's INFO is then the
            // next best.
            QString role;
            if (result.reply.isArray() && !result.reply.elements.isEmpty())
                role = escapeBytes(result.reply.elements.front().string);
            else if (connection)
                role = connection->health().role;
            if (role != QLatin1String("master")) {
                nextSentinel(tr("%1 named by sentinel %2 reports role '%3'")
                                 .arg(candidate.toString(), sentinel, role.isEmpty() ? tr("unknown") : role));
                return;
            }
            const int index = m_current;
            m_running = false;
            ++m_generation;
            dropConnection();
            emit resolved(candidate, index);
        });
}

void SentinelResolver::nextSentinel(const QString& why)
{
    m_reasons << why;
    askSentinel();
}

void SentinelResolver::finish(const RedisError& error)
{
    m_running = false;
    ++m_generation;
    dropConnection();
    emit failed(error);
}

} // namespace lockscope
