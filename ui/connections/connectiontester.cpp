// SPDX-License-Identifier: Apache-2.0
#include "connections/connectiontester.h"

#include "connection/redisconnection.h"
#include "topology/clusterslotmap.h"
#include "topology/clustertopology.h"
#include "topology/sentinelresolver.h"

#include <QElapsedTimer>
#include <QTimer>

#include <functional>
#include <memory>

namespace lockscope {

namespace {

constexpr int clusterSlots = 16384;
constexpr int listedRanges = 4; // a broken cluster can miss thousands of ranges: name the first few

using Report = std::function<void(bool ok, const QString& detail)>;

// Everything one test created lives under `scope`: deleting it ends the test, whatever is under way.
void pingServer(const ConnectionOptions& options, QObject* scope, const Report& report)
{
    auto* connection = new RedisConnection(options, scope);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    QObject::connect(connection, &RedisConnection::stateChanged, scope,
                     [report](RedisConnection::State state, const RedisError& reason) {
                         if (state == RedisConnection::State::Down)
                             report(false, reason.message);
                     });
    // Opened first: a command sent to a connection that is not opening fails at once ("not
    // connected"), and the Test button said so for every single master.
    connection->open();
    connection->send({"PING"}, scope, [connection, clock, report](const RedisResult& result) {
        if (!result.ok() || result.isServerError())
            report(false, result.anyError(connection->name()).message);
        else
            report(true, ConnectionTester::tr("PONG from %1 in %2 ms")
                             .arg(connection->health().displayVersion())
                             .arg(double(clock->nsecsElapsed()) / 1e6, 0, 'f', 1));
    });
}

void resolvePrimary(const ConnectionOptions& options, QObject* scope, const Report& report)
{
    const TopologyUrl url = *options.topology;
    auto* resolver = new SentinelResolver(url, options, scope);
    QObject::connect(resolver, &SentinelResolver::resolved, scope,
                     [report, url](const NodeAddress& primary, int sentinel) {
                         report(true,
                                ConnectionTester::tr("primary %1 (named by sentinel %2, verified with ROLE)")
                                    .arg(primary.toString(), url.seeds().value(sentinel).toString()));
                     });
    QObject::connect(resolver, &SentinelResolver::failed, scope,
                     [report](const RedisError& error) { report(false, error.message); });
    resolver->resolve();
}

void readSlotMap(const ConnectionOptions& options, QObject* scope, const Report& report)
{
    ClusterTopology::Options once;
    once.refreshIntervalMs = 0;
    auto* topology = new ClusterTopology(*options.topology, options, once, scope);
    QObject::connect(topology, &ClusterTopology::refreshed, scope, [topology, report] {
        report(topology->slotMap().coversAllSlots(), ConnectionTester::slotCoverage(topology->slotMap()));
    });
    QObject::connect(topology, &ClusterTopology::refreshFailed, scope,
                     [report](const RedisError& error) { report(false, error.message); });
    topology->start();
}

} // namespace

ConnectionTester::ConnectionTester(QObject* parent) : QObject(parent), m_worker(new QObject)
{
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("lockscope-tester"));
    m_thread.start();
}

ConnectionTester::~ConnectionTester()
{
    m_thread.quit();
    m_thread.wait();
}

int ConnectionTester::timeoutMs(const ConnectionOptions& options)
{
    // A resolver tries the sentinels one after the other, each up to its connect timeout, then
    // verifies the primary; a cluster read tries the seeds the same way.
    const int nodes = options.topology ? int(options.topology->seeds().size()) + 1 : 1;
    return std::max(options.connectTimeoutMs, options.commandTimeoutMs) * nodes + 1000;
}

QString ConnectionTester::slotCoverage(const ClusterSlotMap& map)
{
    const int count = int(map.primaries().size());
    const QString primaries = count == 1 ? tr("1 primary") : tr("%1 primaries").arg(count);
    if (map.coversAllSlots())
        return tr("%1, all %2 slots covered").arg(primaries).arg(clusterSlots);
    QStringList missing;
    int ranges = 0;
    for (int slot = 0; slot < clusterSlots; ++slot) {
        if (map.primaryFor(slot).isValid())
            continue;
        int last = slot;
        while (last + 1 < clusterSlots && !map.primaryFor(last + 1).isValid())
            ++last;
        if (++ranges <= listedRanges)
            missing << (slot == last ? QString::number(slot) : QStringLiteral("%1-%2").arg(slot).arg(last));
        slot = last;
    }
    if (ranges > listedRanges)
        missing << tr("%n more range(s)", nullptr, ranges - listedRanges);
    return tr("%1, %2 of %3 slots not covered: %4")
        .arg(primaries)
        .arg(clusterSlots - map.coveredSlots())
        .arg(clusterSlots)
        .arg(missing.join(QStringLiteral(", ")));
}

void ConnectionTester::test(const ConnectionOptions& options)
{
    ConnectionOptions once = options;
    once.autoReconnect = false;
    once.healthIntervalMs = 0;
    QMetaObject::invokeMethod(m_worker, [this, once, worker = m_worker] {
        auto* scope = new QObject(worker);
        auto reported = std::make_shared<bool>(false);
        // A refused connection fails both the command and the state: say it once, then drop
        // everything this test made (later in the loop: a callback of it is running now).
        const Report report = [this, scope, reported](bool ok, const QString& detail) {
            if (*reported)
                return;
            *reported = true;
            emit finished(ok, detail);
            scope->deleteLater();
        };
        const int limit = timeoutMs(once);
        QTimer::singleShot(limit, scope, [report, limit] {
            report(false, tr("no answer within %1 s").arg(double(limit) / 1000.0, 0, 'f', 1));
        });
        if (!once.topology)
            pingServer(once, scope, report);
        else if (once.topology->isSentinel())
            resolvePrimary(once, scope, report);
        else
            readSlotMap(once, scope, report);
    });
}

} // namespace lockscope
