// SPDX-License-Identifier: Apache-2.0
#include "connection/redisscript.h"
#include "connection/topologyurl.h"
#include "support/redisclustergroup.h"
#include "support/testregistry.h"
#include "topology/clusterkeyslot.h"
#include "topology/clusterredirect.h"
#include "topology/clusterrouter.h"
#include "topology/clustertopology.h"
#include "topology/primarychange.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

namespace tst_clusterrouter {

using namespace lockscope;
using namespace lockscope::test;

// A real 6-node Redis Cluster (3 primaries, 3 replicas) on loopback, built with redis-cli --cluster create.
class TestClusterRouter : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void keySlotMatchesServer();
    void discoversTopologyFromOneSeed();
    void skipsUnreachableSeed();
    void noSeedReachable();
    void routesLocksToEveryShard();
    void followsAskDuringMigration();
    void followsMovedAfterMigration();
    void followsFailover();

private:
    TopologyUrl parse(const QString& text);
    NodeAddress addressOf(int node) { return {QStringLiteral("127.0.0.1"), m_group.at(node).port()}; }
    // A value through the router, waiting on the event loop.
    RedisResult routed(const QByteArray& key, const QByteArrayList& argv);
    void startRouter(const QString& url);

    RedisClusterGroup m_group;
    std::unique_ptr<ClusterTopology> m_topology;
    std::unique_ptr<ClusterRouter> m_router;
    // The slot moved by the migration tests, and its old and new owners.
    int m_slot = -1;
    int m_from = -1;
    int m_to = -1;
    QByteArray m_migratedKey;
};

TopologyUrl TestClusterRouter::parse(const QString& text)
{
    Result<TopologyUrl> url = TopologyUrl::parse(text);
    if (!url)
        qFatal("bad test URL: %s", qPrintable(url.error().message));
    return *url;
}

void TestClusterRouter::initTestCase()
{
    qRegisterMetaType<NodeAddress>();
    qRegisterMetaType<PrimaryChange>();
    qRegisterMetaType<ClusterRedirect>();
    qRegisterMetaType<RedisError>();
    QVERIFY2(m_group.start(3, 1), qPrintable(m_group.errorString()));
    QCOMPARE(m_group.primaryIndexes().size(), 3);
}

void TestClusterRouter::init()
{
    startRouter(m_group.url(1));
}

void TestClusterRouter::cleanup()
{
    m_router.reset();
    m_topology.reset();
}

void TestClusterRouter::startRouter(const QString& url)
{
    m_router.reset();
    ClusterTopology::Options options;
    options.refreshIntervalMs = 0; // refreshes only when asked or redirected: the tests see why
    options.retryDelayMs = 100;
    m_topology = std::make_unique<ClusterTopology>(parse(url), m_group.nodeOptions(), options);
    m_router = std::make_unique<ClusterRouter>(m_topology.get());
    m_topology->start();
}

RedisResult TestClusterRouter::routed(const QByteArray& key, const QByteArrayList& argv)
{
    auto out = std::make_shared<std::optional<RedisResult>>();
    m_router->send(key, argv, this, [out](const RedisResult& result) { *out = result; });
    if (!QTest::qWaitFor([&] { return out->has_value(); }, int(lockscope::test::upperBoundMs(20000))))
        return {RedisError(ErrorKind::Timeout, {}, QStringLiteral("test: no answer")), {}};
    return **out;
}

void TestClusterRouter::keySlotMatchesServer()
{
    QByteArrayList keys{"", "{", "}", "{}", "{}x", "a{b}c", "{a}{b}", "lock:orders", "mutex:{tenant-7}:jobs"};
    for (int i = 0; i < 300; ++i)
        keys << "lock:" + QByteArray::number(i * 7919) << "{user" + QByteArray::number(i) + "}.lock"
             << QByteArray::number(i) + "\xff\x00{\x01}" + QByteArray(i % 5, 'z');
    for (const QByteArray& key : keys) {
        const RedisReply server = m_group.at(0).command({"CLUSTER", "KEYSLOT", key});
        QVERIFY(server.isInteger());
        QCOMPARE(ClusterKeySlot::of(key), int(server.integer));
    }
}

void TestClusterRouter::discoversTopologyFromOneSeed()
{
    QSignalSpy changed(m_topology.get(), &ClusterTopology::primariesChanged);
    QTRY_VERIFY_WITH_TIMEOUT(m_topology->isReady(), 20000);
    const ClusterSlotMap& map = m_topology->slotMap();
    QVERIFY(map.coversAllSlots());
    QList<NodeAddress> expected;
    for (int primary : m_group.primaryIndexes()) {
        expected << addressOf(primary);
        QCOMPARE(map.replicasOf(addressOf(primary)),
                 QList<NodeAddress>{addressOf(m_group.replicaOf(primary))});
    }
    std::sort(expected.begin(), expected.end());
    QCOMPARE(m_topology->primaries(), expected);
    for (int slot : {0, 5000, 9999, 16383})
        QCOMPARE(map.primaryFor(slot), addressOf(m_group.primaryForSlot(slot)));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).value<QList<NodeAddress>>(), expected);
}

void TestClusterRouter::skipsUnreachableSeed()
{
    startRouter(QStringLiteral("redis-cluster://:%1@127.0.0.1:%2,127.0.0.1:%3")
                    .arg(m_group.at(0).options().password)
                    .arg(freeLoopbackPort())
                    .arg(m_group.at(m_group.size() - 1).port()));
    QTRY_VERIFY_WITH_TIMEOUT(m_topology->isReady(), 20000);
    QVERIFY(m_topology->slotMap().coversAllSlots());
    QVERIFY(!m_topology->lastError().isError());
}

void TestClusterRouter::noSeedReachable()
{
    startRouter(QStringLiteral("redis-cluster://:pw-Zq9@127.0.0.1:%1").arg(freeLoopbackPort()));
    QSignalSpy failed(m_topology.get(), &ClusterTopology::refreshFailed);
    // A command sent meanwhile waits for a slot map, and fails with the reason when none comes.
    const RedisResult result = routed("lock:x", {"GET", "lock:x"});
    QVERIFY(!result.ok());
    QVERIFY2(result.error.message.contains(QLatin1String("no cluster node answered")),
             qPrintable(result.error.toString()));
    QVERIFY(!result.error.toString().contains(QLatin1String("Zq9")));
    QVERIFY(failed.size() >= 1);
    QVERIFY(!m_topology->isReady());
}

void TestClusterRouter::routesLocksToEveryShard()
{
    QMap<int, int> perPrimary;
    for (int i = 0; i < 60; ++i) {
        const QByteArray key = "lock:route:" + QByteArray::number(i);
        const QByteArray token = "token-" + QByteArray::number(i);
        const RedisResult set = routed(key, {"SET", key, token, "NX", "PX", "60000"});
        QVERIFY2(set.ok() && set.reply.isStatus(),
                 qPrintable(set.error.toString() + QString::fromUtf8(set.reply.string)));
        // The owning primary has it, read directly.
        const int owner = m_group.primaryForSlot(ClusterKeySlot::of(key));
        QCOMPARE(m_group.at(owner).command({"GET", key}).string, token);
        ++perPrimary[owner];
        QCOMPARE(routed(key, {"GET", key}).reply.string, token);
    }
    QCOMPARE(perPrimary.size(), 3);
    QCOMPARE(m_router->movedCount(), 0);
    QCOMPARE(m_router->askCount(), 0);

    // Token-checked scripts go by their key too (the release script's shape).
    const RedisScript release(
        "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) "
        "else return 0 end");
    auto out = std::make_shared<std::optional<RedisResult>>();
    m_router->evalScript(release, {"lock:route:7"}, {"token-7"}, this,
                         [out](const RedisResult& r) { *out = r; });
    QTRY_VERIFY_WITH_TIMEOUT(out->has_value(), 20000);
    QCOMPARE((*out)->reply.integer, 1);
    QVERIFY(routed("lock:route:7", {"GET", "lock:route:7"}).reply.isNil());
}

void TestClusterRouter::followsAskDuringMigration()
{
    QTRY_VERIFY_WITH_TIMEOUT(m_topology->isReady(), 20000);
    const QList<int> primaries = m_group.primaryIndexes();
    m_from = primaries.at(0);
    m_to = primaries.at(1);
    m_migratedKey = m_group.keyOn(m_from, "lock:migrating:");
    QVERIFY(!m_migratedKey.isEmpty());
    m_slot = ClusterKeySlot::of(m_migratedKey);
    QVERIFY(routed(m_migratedKey, {"SET", m_migratedKey, "tok-1", "PX", "600000"}).ok());

    QVERIFY(m_group.beginSlotMigration(m_slot, m_from, m_to));
    QVERIFY(m_group.migrateKey(m_migratedKey, m_from, m_to));
    QSignalSpy redirected(m_router.get(), &ClusterRouter::redirected);

    // The old owner no longer has the key: it answers ASK, and the router asks the new one.
    const RedisResult get = routed(m_migratedKey, {"GET", m_migratedKey});
    QVERIFY(get.ok());
    QCOMPARE(get.reply.string, QByteArray("tok-1"));
    QCOMPARE(m_router->askCount(), 1);
    QCOMPARE(redirected.size(), 1);
    const ClusterRedirect ask = redirected.at(0).at(0).value<ClusterRedirect>();
    QCOMPARE(ask.kind, ClusterRedirect::Kind::Ask);
    QCOMPARE(ask.slot, m_slot);
    QCOMPARE(ask.target, addressOf(m_to));
    // ASK is for one command only: the map still names the old owner.
    QCOMPARE(m_topology->slotMap().primaryFor(m_slot), addressOf(m_from));

    // A new key of the migrating slot goes to the importing node too (with ASKING, or it would refuse).
    const QByteArray sibling = "{" + ClusterKeySlot::hashedPart(m_migratedKey).toByteArray() + "}:sibling";
    QCOMPARE(ClusterKeySlot::of(sibling), m_slot);
    const RedisResult set = routed(sibling, {"SET", sibling, "tok-2", "NX", "PX", "600000"});
    QVERIFY2(set.ok() && set.reply.isStatus(), set.reply.string.constData());
    QCOMPARE(m_router->askCount(), 2);

    // A script follows ASK too: sent as EVAL after ASKING, so that no NOSCRIPT round trip can lose it.
    const RedisScript read("return redis.call('get', KEYS[1])");
    auto out = std::make_shared<std::optional<RedisResult>>();
    m_router->evalScript(read, {m_migratedKey}, {}, this, [out](const RedisResult& r) { *out = r; });
    QTRY_VERIFY_WITH_TIMEOUT(out->has_value(), 20000);
    QCOMPARE((*out)->reply.string, QByteArray("tok-1"));
    QCOMPARE(m_router->askCount(), 3);
    QVERIFY(m_group.at(m_from).command({"EXISTS", sibling}).integer == 0);
    QCOMPARE(m_router->movedCount(), 0);
}

void TestClusterRouter::followsMovedAfterMigration()
{
    QVERIFY(m_slot >= 0); // set by followsAskDuringMigration
    QTRY_VERIFY_WITH_TIMEOUT(m_topology->isReady(), 20000);
    QCOMPARE(m_topology->slotMap().primaryFor(m_slot), addressOf(m_from));
    QVERIFY(m_group.finishSlotMigration(m_slot, m_from, m_to));
    QSignalSpy redirected(m_router.get(), &ClusterRouter::redirected);
    QSignalSpy mapChanged(m_topology.get(), &ClusterTopology::slotMapChanged);
    const int refreshesBefore = m_topology->refreshCount();

    // The router still believes the old owner, which now answers MOVED.
    const RedisResult get = routed(m_migratedKey, {"GET", m_migratedKey});
    QVERIFY(get.ok());
    QCOMPARE(get.reply.string, QByteArray("tok-1"));
    QCOMPARE(m_router->movedCount(), 1);
    QCOMPARE(redirected.at(0).at(0).value<ClusterRedirect>().kind, ClusterRedirect::Kind::Moved);
    // The slot is patched at once, and a full refresh follows.
    QCOMPARE(m_topology->slotMap().primaryFor(m_slot), addressOf(m_to));
    QVERIFY(mapChanged.size() >= 1);
    QTRY_VERIFY_WITH_TIMEOUT(m_topology->refreshCount() > refreshesBefore, 20000);
    QCOMPARE(m_topology->slotMap().primaryFor(m_slot), addressOf(m_to));
    QVERIFY(m_topology->slotMap().coversAllSlots());

    // The next command for that slot goes straight to the new owner.
    QCOMPARE(routed(m_migratedKey, {"PTTL", m_migratedKey}).reply.type, RedisReply::Type::Integer);
    QCOMPARE(m_router->movedCount(), 1);
}

void TestClusterRouter::followsFailover()
{
    QTRY_VERIFY_WITH_TIMEOUT(m_topology->isReady(), 20000);
    const int primary = m_group.primaryIndexes().at(2);
    const int replica = m_group.replicaOf(primary);
    QVERIFY(replica >= 0);
    const QByteArray key = m_group.keyOn(primary, "lock:failover:");
    QVERIFY(routed(key, {"SET", key, "held", "PX", "600000"}).ok());
    // WAIT, on the same connection: the replica acknowledged the write before the failover.
    QCOMPARE(routed(key, {"WAIT", "1", "10000"}).reply.integer, 1);
    QSignalSpy replaced(m_topology.get(), &ClusterTopology::primaryReplaced);
    QSignalSpy changed(m_topology.get(), &ClusterTopology::primariesChanged);

    // A coordinated failover: the replica takes over its primary's slots.
    const RedisReply failover = m_group.at(replica).command({"CLUSTER", "FAILOVER"});
    QVERIFY2(!failover.isError(), failover.string.constData());
    QTRY_VERIFY_WITH_TIMEOUT(m_group.primaryForSlot(ClusterKeySlot::of(key)) == replica, 30000);

    // The router's next command reaches the old primary, now a replica: it answers MOVED.
    const RedisResult get = routed(key, {"GET", key});
    QVERIFY2(get.ok(), qPrintable(get.error.toString()));
    QCOMPARE(get.reply.string, QByteArray("held"));
    QVERIFY(m_router->movedCount() >= 1);
    QTRY_VERIFY_WITH_TIMEOUT(replaced.size() >= 1, 30000);
    const PrimaryChange change = replaced.at(0).at(0).value<PrimaryChange>();
    QCOMPARE(change.oldPrimary, addressOf(primary));
    QCOMPARE(change.newPrimary, addressOf(replica));
    QVERIFY(changed.size() >= 1);
    QVERIFY(!m_topology->primaries().contains(addressOf(primary)));
    QVERIFY(m_topology->primaries().contains(addressOf(replica)));
    // Once the old primary replicates from the new one, a refresh lists it as its replica.
    QVERIFY(m_group.waitForConsistent());
    const int refreshes = m_topology->refreshCount();
    m_topology->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(m_topology->refreshCount() > refreshes, 20000);
    QCOMPARE(m_topology->slotMap().replicasOf(addressOf(replica)), QList<NodeAddress>{addressOf(primary)});
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestClusterRouter)

} // namespace tst_clusterrouter

#include "tst_clusterrouter.moc"
