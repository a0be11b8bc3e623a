// SPDX-License-Identifier: Apache-2.0
// A cluster redirection names the address the router then sends the credentials to (issue 14):
// MOVED/ASK to an address outside the slot map is followed only when a fresh map lists it. Small fake
// cluster nodes on loopback forge the redirections, and a real cluster forges one through a script;
// a "trap" node outside the map records whether anything reached it. (tst_clusterrouter shows that a
// real cluster's own MOVED and ASK are still followed.)
#include "connection/topologyurl.h"
#include "support/redisclustergroup.h"
#include "support/testregistry.h"
#include "topology/clusterkeyslot.h"
#include "topology/clusterrouter.h"
#include "topology/clustertopology.h"

#include "support/fakeredispeer.h"
#include "support/scriptedtransport.h"

#include <QTest>

#include <functional>
#include <memory>
#include <optional>

namespace tst_clusterredirecttrust {

using namespace lockscope;
using namespace lockscope::test;

namespace {

using Shard = std::tuple<int, int, NodeAddress>; // first slot, last slot, primary

// CLUSTER SLOTS as `node` tells it; everything else as FakeRedisPeer answers by default, or `other`.
void actAsClusterNode(FakeRedisPeer& node, const std::function<QList<Shard>()>& shards,
                      const std::function<QByteArray(const QByteArrayList&)>& other)
{
    node.setHandler([shards, other](const QByteArrayList& argv, QTcpSocket*) -> std::optional<QByteArray> {
        const QByteArray name = argv.value(0).toUpper();
        if (name == "CLUSTER" && argv.value(1).toUpper() == "SLOTS") {
            const QList<Shard> list = shards();
            QByteArray out = '*' + QByteArray::number(list.size()) + "\r\n";
            for (const auto& [first, last, primary] : list)
                out += "*3\r\n:" + QByteArray::number(first) + "\r\n:" + QByteArray::number(last) +
                       "\r\n*3\r\n" + ScriptedTransport::bulk(primary.host.toUtf8()) + ':' +
                       QByteArray::number(primary.port) + "\r\n" +
                       ScriptedTransport::bulk(QByteArray::number(primary.port).rightJustified(40, '0'));
            return out;
        }
        if (name == "AUTH" || name == "SELECT" || name == "CLIENT" || name == "INFO" || name == "TIME" ||
            name == "COMMAND" || name == "PING" || name == "ASKING" || !other)
            return std::nullopt;
        return other(argv);
    });
}

} // namespace

class TestClusterRedirectTrust : public QObject
{
    Q_OBJECT

private slots:
    void cleanup();
    void movedOutsideTheMapIsRefused();
    void askOutsideTheMapIsRefused();
    void movedToANodeThatJoinedIsFollowed();
    void realClusterForgedMovedIsRefused();

private:
    void startRouter(const FakeRedisPeer& seed);
    // A router on `seed`, the whole cluster, which answers every key with `redirect` ("MOVED", "ASK")
    // to `trap`, a node outside its map.
    void startRedirectingTo(FakeRedisPeer& seed, const FakeRedisPeer& trap, const QByteArray& redirect);
    void startRouter(const QString& url, const ConnectionOptions& nodeOptions);
    RedisResult routed(const QByteArray& key);

    std::unique_ptr<ClusterTopology> m_topology;
    std::unique_ptr<ClusterRouter> m_router;
};

void TestClusterRedirectTrust::cleanup()
{
    m_router.reset();
    m_topology.reset();
}

void TestClusterRedirectTrust::startRouter(const FakeRedisPeer& seed)
{
    ConnectionOptions nodeOptions;
    nodeOptions.connectTimeoutMs = nodeOptions.commandTimeoutMs = 2000;
    nodeOptions.healthIntervalMs = 0;
    startRouter(QStringLiteral("redis-cluster://ops:Cluster-Secret@%1").arg(seed.address().toString()),
                nodeOptions);
}

void TestClusterRedirectTrust::startRouter(const QString& text, const ConnectionOptions& nodeOptions)
{
    const Result<TopologyUrl> url = TopologyUrl::parse(text);
    QVERIFY(url.ok());
    ClusterTopology::Options options;
    options.refreshIntervalMs = 0;
    options.retryDelayMs = 100;
    m_topology = std::make_unique<ClusterTopology>(*url, nodeOptions, options);
    m_router = std::make_unique<ClusterRouter>(m_topology.get());
    m_topology->start();
    QTRY_VERIFY_WITH_TIMEOUT(m_topology->isReady(), 10000);
}

void TestClusterRedirectTrust::startRedirectingTo(FakeRedisPeer& seed, const FakeRedisPeer& trap,
                                                  const QByteArray& redirect)
{
    actAsClusterNode(
        seed,
        [&seed] {
            return QList<Shard>{{0, 16383, seed.address()}};
        },
        [&trap, redirect](const QByteArrayList&) -> QByteArray {
            return '-' + redirect + " 866 " + trap.address().toString().toUtf8() + "\r\n";
        });
    startRouter(seed);
}

RedisResult TestClusterRedirectTrust::routed(const QByteArray& key)
{
    auto out = std::make_shared<std::optional<RedisResult>>();
    m_router->send(key, {"GET", key}, this, [out](const RedisResult& result) { *out = result; });
    if (!QTest::qWaitFor([&] { return out->has_value(); }, int(lockscope::test::upperBoundMs(10000))))
        return {RedisError(ErrorKind::Timeout, {}, QStringLiteral("test: no answer")), {}};
    return **out;
}

void TestClusterRedirectTrust::movedOutsideTheMapIsRefused()
{
    FakeRedisPeer seed, trap;
    startRedirectingTo(seed, trap, "MOVED");
    QVERIFY(seed.sawAuthWith("Cluster-Secret")); // the seed is ours: it gets the credentials
    const int refreshes = m_topology->refreshCount();

    const RedisResult result = routed("lock:x");
    QVERIFY(!result.ok());
    QVERIFY2(result.error.message.contains(QLatin1String("refused to follow MOVED")) &&
                 result.error.message.contains(trap.address().toString()),
             qPrintable(result.error.toString()));
    QVERIFY(m_topology->refreshCount() > refreshes); // the map was read again before refusing
    QCOMPARE(trap.connections(), 0);
    QVERIFY(!m_topology->knowsNode(trap.address())); // nor was it written into the map
}

void TestClusterRedirectTrust::askOutsideTheMapIsRefused()
{
    FakeRedisPeer seed, trap;
    startRedirectingTo(seed, trap, "ASK");
    const RedisResult result = routed("lock:x");
    QVERIFY(!result.ok());
    QVERIFY2(result.error.message.contains(QLatin1String("refused to follow ASK")),
             qPrintable(result.error.toString()));
    QCOMPARE(trap.connections(), 0);
}

// A MOVED to a node the router has not seen yet, which the refreshed map then lists (a node that
// joined): followed, with the credentials.
void TestClusterRedirectTrust::movedToANodeThatJoinedIsFollowed()
{
    FakeRedisPeer seed, joined;
    bool moved = false;
    actAsClusterNode(
        seed,
        [&] {
            // Once the slot has moved, the map says so.
            return moved ? QList<Shard>{{0, 8000, seed.address()}, {8001, 16383, joined.address()}}
                         : QList<Shard>{{0, 16383, seed.address()}};
        },
        [&](const QByteArrayList&) -> QByteArray {
            moved = true;
            return "-MOVED 866 " + joined.address().toString().toUtf8() + "\r\n";
        });
    actAsClusterNode(
        joined, [] { return QList<Shard>{}; },
        [](const QByteArrayList&) { return ScriptedTransport::bulk("value"); });
    startRouter(seed);
    QVERIFY(!m_topology->knowsNode(joined.address()));

    const RedisResult result = routed("lock:x");
    QVERIFY2(result.ok(), qPrintable(result.error.toString()));
    QCOMPARE(result.reply.string, QByteArray("value"));
    QVERIFY(m_topology->knowsNode(joined.address()));
    QVERIFY(joined.sawAuthWith("Cluster-Secret"));
    QCOMPARE(m_router->movedCount(), 1);
}

// A real cluster with a password: a script makes a real node answer MOVED to the trap.
void TestClusterRedirectTrust::realClusterForgedMovedIsRefused()
{
    RedisServerOptions serverOptions;
    serverOptions.password = distinctTestPassword(QStringLiteral("Real-Cluster-Secret"));
    RedisClusterGroup group;
    QVERIFY2(group.start(3, 0, serverOptions), qPrintable(group.errorString()));
    startRouter(group.url(1), group.nodeOptions());
    FakeRedisPeer trap;
    const int refreshes = m_topology->refreshCount();

    const QByteArray key = "lock:forged";
    const QByteArray script = "return redis.error_reply('MOVED " +
                              QByteArray::number(ClusterKeySlot::of(key)) + ' ' +
                              trap.address().toString().toUtf8() + "')";
    auto out = std::make_shared<std::optional<RedisResult>>();
    m_router->send(key, {"EVAL", script, "1", key}, this,
                   [out](const RedisResult& result) { *out = result; });
    QTRY_VERIFY_WITH_TIMEOUT(out->has_value(), 10000);
    const RedisResult& result = **out;
    QVERIFY(!result.ok());
    QVERIFY2(result.error.message.contains(QLatin1String("refused to follow MOVED")),
             qPrintable(result.error.toString()));
    QVERIFY(m_topology->refreshCount() > refreshes);
    QCOMPARE(trap.connections(), 0);

    // The router still serves the cluster's own nodes.
    auto set = std::make_shared<std::optional<RedisResult>>();
    m_router->send(key, {"SET", key, "v"}, this, [set](const RedisResult& result) { *set = result; });
    QTRY_VERIFY_WITH_TIMEOUT(set->has_value(), 10000);
    QVERIFY2((*set)->ok() && (*set)->reply.string == "OK", qPrintable((*set)->error.toString()));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestClusterRedirectTrust)

} // namespace tst_clusterredirecttrust

#include "tst_clusterredirecttrust.moc"
