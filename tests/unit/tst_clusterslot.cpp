// SPDX-License-Identifier: Apache-2.0
#include "support/redisserver.h"
#include "support/testregistry.h"
#include "topology/clusterkeyslot.h"
#include "topology/clusterredirect.h"
#include "topology/clusterslotmap.h"

#include <QTest>

#include <memory>

namespace tst_clusterslot {

using namespace lockscope;

namespace {

RedisReply integer(qint64 value)
{
    RedisReply r;
    r.type = RedisReply::Type::Integer;
    r.integer = value;
    return r;
}

RedisReply string(const QByteArray& value)
{
    RedisReply r;
    r.type = RedisReply::Type::String;
    r.string = value;
    return r;
}

RedisReply array(QList<RedisReply> elements)
{
    RedisReply r;
    r.type = RedisReply::Type::Array;
    r.elements = std::move(elements);
    return r;
}

RedisReply node(const QByteArray& host, int port, const QByteArray& id = "id")
{
    return array({string(host), integer(port), string(id)});
}

RedisReply error(const QByteArray& text)
{
    RedisReply r;
    r.type = RedisReply::Type::Error;
    r.string = text;
    return r;
}

} // namespace

class TestClusterSlot : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void crc16KnownValue();
    void keySlot_data();
    void keySlot();
    void slotMapFromClusterSlots();
    void slotMapRejectsMalformed();
    void slotMapAssignAndCompare();
    void redirects_data();
    void redirects();

private:
    // A real cluster-enabled redis-server: the oracle for every key's slot (CLUSTER KEYSLOT works
    // on a node that has no slots yet).
    std::unique_ptr<lockscope::test::RedisServer> m_server;
};

void TestClusterSlot::initTestCase()
{
    lockscope::test::RedisServerOptions options;
    options.extraArgs = {QStringLiteral("--cluster-enabled"), QStringLiteral("yes")};
    m_server = std::make_unique<lockscope::test::RedisServer>(options);
    QVERIFY2(m_server->start(), "redis-server with --cluster-enabled yes did not start");
    QCOMPARE(m_server->command({"CLUSTER", "KEYSLOT", "foo"}).integer, 12182);
}

void TestClusterSlot::crc16KnownValue()
{
    // The check value of CRC-16/XMODEM, as given in the cluster specification.
    QCOMPARE(ClusterKeySlot::crc16("123456789"), quint16(0x31C3));
    QCOMPARE(ClusterKeySlot::crc16(""), quint16(0));
}

void TestClusterSlot::keySlot_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<int>("slot"); // -1: only the server's answer
    // Values from CLUSTER KEYSLOT on redis-server 7.0, and every key is asked live as well.
    QTest::newRow("foo") << QByteArray("foo") << 12182;
    QTest::newRow("bar") << QByteArray("bar") << 5061;
    QTest::newRow("empty") << QByteArray("") << 0;
    QTest::newRow("hash tag") << QByteArray("{user1000}.following") << 3443;
    QTest::newRow("same hash tag") << QByteArray("{user1000}.followers") << 3443;
    QTest::newRow("tag equals key") << QByteArray("user1000") << 3443;
    QTest::newRow("empty tag hashes whole key") << QByteArray("foo{}{bar}") << 8363;
    QTest::newRow("first tag wins") << QByteArray("foo{bar}{zap}") << 5061;
    QTest::newRow("tag with brace") << QByteArray("foo{{bar}}zap") << 4015;
    QTest::newRow("unclosed brace") << QByteArray("foo{bar") << 15278;
    // Binary keys: the slot is whatever the server says, never the product's own CRC16.
    QTest::newRow("binary") << QByteArray("lock:\x00\xff", 7) << -1;
    QTest::newRow("binary hash tag") << QByteArray("\xfe{\x00\x80\xff}\x01", 7) << -1;
    QTest::newRow("binary empty tag") << QByteArray("\x7f{}\xc3\xa9", 5) << -1;
    QByteArray all;
    for (int b = 0; b < 256; ++b)
        all += char(b);
    QTest::newRow("every byte") << all << -1;
    QTest::newRow("high bytes only") << QByteArray(64, '\xa5') << -1;
    QTest::newRow("utf-8") << QByteArray("lock:r\xc3\xa9sum\xc3\xa9") << -1;
}

void TestClusterSlot::keySlot()
{
    QFETCH(QByteArray, key);
    QFETCH(int, slot);
    const RedisReply server = m_server->command({"CLUSTER", "KEYSLOT", key});
    QVERIFY2(server.isInteger(), server.string.constData());
    if (slot >= 0)
        QCOMPARE(int(server.integer), slot);
    QCOMPARE(ClusterKeySlot::of(key), int(server.integer));
}

void TestClusterSlot::slotMapFromClusterSlots()
{
    // Two ranges for one primary; a node that announces no host stands for the one that answered.
    const RedisReply reply = array({
        array({integer(0), integer(5460), node("10.0.0.1", 7000), node("10.0.0.4", 7003)}),
        array({integer(5461), integer(10922), node("", 7001, "b"), node("10.0.0.5", 7004)}),
        array({integer(10923), integer(16000), node("10.0.0.3", 7002, "c")}),
        array({integer(16001), integer(16383), node("10.0.0.1", 7000), node("10.0.0.6", 7005)}),
    });
    const Result<ClusterSlotMap> map =
        ClusterSlotMap::fromClusterSlots(reply, {QStringLiteral("10.0.0.2"), 9});
    QVERIFY(map.ok());
    QVERIFY(map->coversAllSlots());
    QCOMPARE(map->primaryFor(0), (NodeAddress{QStringLiteral("10.0.0.1"), 7000}));
    QCOMPARE(map->primaryFor(16383), (NodeAddress{QStringLiteral("10.0.0.1"), 7000}));
    QCOMPARE(map->primaryFor(5461), (NodeAddress{QStringLiteral("10.0.0.2"), 7001}));
    QCOMPARE(map->primaryFor(-1), NodeAddress());
    QCOMPARE(map->primaries().size(), 3);
    const QList<NodeAddress> replicas = map->replicasOf({QStringLiteral("10.0.0.1"), 7000});
    QCOMPARE(replicas.size(), 2);
    const QList<ClusterSlotMap::SlotRange> ranges = map->slotRanges({QStringLiteral("10.0.0.1"), 7000});
    QCOMPARE(ranges.size(), 2);
    QCOMPARE(ranges[0], (ClusterSlotMap::SlotRange{0, 5460}));
    QCOMPARE(ranges[1], (ClusterSlotMap::SlotRange{16001, 16383}));

    const RedisReply partial = array({array({integer(0), integer(99), node("h", 1)})});
    const Result<ClusterSlotMap> gap = ClusterSlotMap::fromClusterSlots(partial, {QStringLiteral("h"), 1});
    QVERIFY(gap.ok());
    QCOMPARE(gap->coveredSlots(), 100);
    QVERIFY(!gap->primaryFor(100).isValid());
}

void TestClusterSlot::slotMapRejectsMalformed()
{
    const NodeAddress by{QStringLiteral("h"), 1};
    QCOMPARE(ClusterSlotMap::fromClusterSlots(error("ERR This instance has cluster support disabled"), by)
                 .error()
                 .kind,
             ErrorKind::ServerError);
    QCOMPARE(ClusterSlotMap::fromClusterSlots(string("x"), by).error().kind, ErrorKind::Protocol);
    QVERIFY(
        !ClusterSlotMap::fromClusterSlots(array({array({integer(5), integer(4), node("h", 1)})}), by).ok());
    QVERIFY(!ClusterSlotMap::fromClusterSlots(array({array({integer(0), integer(16384), node("h", 1)})}), by)
                 .ok());
    QVERIFY(
        !ClusterSlotMap::fromClusterSlots(array({array({integer(0), integer(1), node("h", 0)})}), by).ok());
}

void TestClusterSlot::slotMapAssignAndCompare()
{
    const RedisReply reply = array({array({integer(0), integer(16383), node("a", 1), node("b", 2)})});
    Result<ClusterSlotMap> map = ClusterSlotMap::fromClusterSlots(reply, {});
    QVERIFY(map.ok());
    const ClusterSlotMap before = *map;
    QVERIFY(before.sameTopology(*map));
    map->assign(42, {QStringLiteral("b"), 2});
    QCOMPARE(map->primaryFor(42), (NodeAddress{QStringLiteral("b"), 2}));
    QCOMPARE(map->primaryFor(41), (NodeAddress{QStringLiteral("a"), 1}));
    QCOMPARE(map->primaries().size(), 2);
    QVERIFY(!before.sameTopology(*map));
    QCOMPARE(map->slotRanges({QStringLiteral("a"), 1}).size(), 2);
}

void TestClusterSlot::redirects_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<bool>("moved");
    QTest::addColumn<int>("slot");
    QTest::addColumn<QString>("target");
    QTest::newRow("moved") << QByteArray("MOVED 3999 127.0.0.1:6381") << true << true << 3999
                           << "127.0.0.1:6381";
    QTest::newRow("ask") << QByteArray("ASK 16383 10.1.2.3:7000") << true << false << 16383
                         << "10.1.2.3:7000";
    QTest::newRow("IPv6") << QByteArray("MOVED 1 ::1:7000") << true << true << 1 << "[::1]:7000";
    QTest::newRow("no host") << QByteArray("MOVED 7 :7002") << true << true << 7 << "answering-host:7002";
    QTest::newRow("other error") << QByteArray("ERR unknown command") << false << false << 0 << "";
    QTest::newRow("slot out of range") << QByteArray("MOVED 16384 h:1") << false << false << 0 << "";
    QTest::newRow("bad port") << QByteArray("ASK 1 h:0") << false << false << 0 << "";
    QTest::newRow("no port") << QByteArray("ASK 1 h") << false << false << 0 << "";
}

void TestClusterSlot::redirects()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, valid);
    QFETCH(bool, moved);
    QFETCH(int, slot);
    QFETCH(QString, target);
    const std::optional<ClusterRedirect> redirect =
        ClusterRedirect::fromReply(error(text), QStringLiteral("answering-host"));
    QCOMPARE(redirect.has_value(), valid);
    if (!valid)
        return;
    QCOMPARE(redirect->kind == ClusterRedirect::Kind::Moved, moved);
    QCOMPARE(redirect->slot, slot);
    QCOMPARE(redirect->target.toString(), target);
    QVERIFY(!ClusterRedirect::fromReply(string(text), {}).has_value()); // only error replies redirect
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestClusterSlot)

} // namespace tst_clusterslot

#include "tst_clusterslot.moc"
