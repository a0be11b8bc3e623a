// SPDX-License-Identifier: Apache-2.0
// Force-release of Redisson's locks against a real master, as Redisson itself leaves them
// (tests/interop/redisson-layouts.json): who is woken and on which channel, one reader of a read lock
// rather than the lock, a holder that joined or entered again after the look, a cluster's sharded
// publish.
#include "support/forcereleasecluster.h"
#include "support/groupmaster.h"
#include "support/redisclustergroup.h"
#include "support/testpaths.h"
#include "support/testregistry.h"
#include "topology/clusterkeyslot.h"

#include <QDateTime>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpSocket>
#include <QTest>

#include <algorithm>
#include <optional>

namespace tst_forcerelease_redisson {

using namespace lockscope;
using namespace lockscope::test;
using Action = ForceReleaseMasterResult::Action;

namespace {

// Redisson's layouts as tests/interop/redisson-layouts.json writes them down from its source.
QJsonObject redissonLayouts()
{
    QFile file(sourcePath(QStringLiteral("tests/interop/redisson-layouts.json")));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("tests/interop/redisson-layouts.json is missing");
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("kinds")).toObject();
}

QByteArray fill(QString text, const QHash<QString, QByteArray>& values)
{
    // Longest names first: $holder must not be taken for $h…
    QStringList names = values.keys();
    std::sort(names.begin(), names.end(),
              [](const QString& a, const QString& b) { return a.size() > b.size(); });
    for (const QString& name : names)
        text.replace(QLatin1Char('$') + name, QString::fromUtf8(values.value(name)));
    return text.toUtf8();
}

void replay(const RedisServer& server, const QJsonArray& commands, const QHash<QString, QByteArray>& values)
{
    for (const QJsonValue& command : commands) {
        QByteArrayList argv;
        for (const QJsonValue& arg : command.toArray())
            argv << fill(arg.toString(), values);
        if (server.command(argv).isError())
            qFatal("fixture command failed");
    }
}

constexpr char readerA[] = "8e2f2a47-51a1-4c5f-9b0a-1f2d3c4b5a69:57";
constexpr char readerB[] = "0b7c9d12-3e4f-4a5b-8c6d-7e8f9a0b1c2d:12";
constexpr char readerC[] = "5d6e7f80-1a2b-4c3d-9e4f-5a6b7c8d9e0f:3";

// A Redisson read lock with these readers, each entered `count` times, as RedissonReadLock leaves it.
void addReader(const RedisServer& server, const QByteArray& name, const QByteArray& reader, int count = 1)
{
    server.command({"HSET", name, "mode", "read"});
    for (int i = 1; i <= count; ++i) {
        server.command({"HINCRBY", name, reader, "1"});
        server.command({"SET", "{" + name + "}:" + reader + ":rwlock_timeout:" + QByteArray::number(i), "1",
                        "PX", "30000"});
    }
    server.command({"PEXPIRE", name, "30000"});
}

} // namespace

class TestForceReleaseRedisson : public QObject
{
    Q_OBJECT

private slots:
    // Each test gets a cluster of one master.
    void init();
    void cleanup() { m_cluster.reset(); }
    void redissonChannelNames();
    void redissonLayoutsFromFixture_data();
    void redissonLayoutsFromFixture();
    void redissonTwoReadersLoseOnlyOne();
    void redissonWholeHolderSetAsListed();
    void redissonReaderJoinedAfterTheLook();
    void redissonReenteredLock();
    void redissonPreviewEqualsWhatHappens();
    void redissonOnAClusterPublishesSharded();

private:
    RedisServer& server() { return m_cluster->group.at(0); }

    std::optional<ForceReleaseCluster> m_cluster;
};

void TestForceReleaseRedisson::init()
{
    m_cluster.emplace();
    QVERIFY(m_cluster->start(1));
}

void TestForceReleaseRedisson::redissonChannelNames()
{
    QCOMPARE(ForceRelease::redissonChannel("orders"), QByteArray("redisson_lock__channel:{orders}"));
    QCOMPARE(ForceRelease::redissonChannel("{orders}:lock"),
             QByteArray("redisson_lock__channel:{orders}:lock"));
}

void TestForceReleaseRedisson::redissonLayoutsFromFixture_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QByteArray>("holder");
    QTest::newRow("lock") << QStringLiteral("lock") << QByteArray(readerA);
    QTest::newRow("fair lock with a waiter") << QStringLiteral("fair_lock") << QByteArray(readerA);
    QTest::newRow("read lock") << QStringLiteral("read_lock") << QByteArray(readerA);
    QTest::newRow("write lock") << QStringLiteral("write_lock") << QByteArray(readerA) + ":write";
}

void TestForceReleaseRedisson::redissonLayoutsFromFixture()
{
    QFETCH(QString, kind);
    QFETCH(QByteArray, holder);
    const QJsonObject layout = redissonLayouts().value(kind).toObject();
    QVERIFY2(!layout.isEmpty(), qPrintable(kind));
    const QHash<QString, QByteArray> values{
        {QStringLiteral("name"), "orders"},
        {QStringLiteral("holder"), readerA},
        {QStringLiteral("waiter"), readerB},
        {QStringLiteral("first_live_waiter"), readerB},
        {QStringLiteral("deadline"), QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 60000)}};
    replay(server(), layout.value(QStringLiteral("acquire")).toArray(), values);
    // A fair lock's first waiter is stale (deadline passed): Redisson skips it, so must we.
    if (kind == QLatin1String("fair_lock")) {
        server().command({"ZADD", "redisson_lock_timeout:{orders}", "1000", readerC});
        server().command({"RPUSH", "redisson_lock_queue:{orders}", readerC});
    }
    replay(server(), layout.value(QStringLiteral("wait")).toArray(), values);
    PublishListener listener(server());
    QVERIFY(listener.ready(server()));

    const ForceReleasePlan plan = m_cluster->inspect(forceReleaseRequest("orders", holder));
    QVERIFY2(plan.refusal.isEmpty(), qPrintable(plan.refusal));
    const ForceReleaseOutcome o = m_cluster->execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::Done);
    QCOMPARE(o.results.first().action, Action::Deleted);
    QCOMPARE(server().command({"EXISTS", "orders"}).integer, 0);
    const QJsonObject unlock = layout.value(QStringLiteral("unlock_publishes")).toObject();
    const QByteArrayList expected{fill(unlock.value(QStringLiteral("channel")).toString(), values),
                                  fill(unlock.value(QStringLiteral("message")).toString(), values)};
    QVERIFY(QTest::qWaitFor([&] { return !listener.messages.isEmpty(); },
                            int(lockscope::test::upperBoundMs(3000))));
    QTest::qWait(50);
    QCOMPARE(listener.messages, QList<QByteArrayList>{expected});
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QCOMPARE(o.results.first().commands.last(), (QByteArrayList{"PUBLISH"} + expected));
    // The waiters' own keys are theirs: a fair lock's queue stays as it was.
    if (kind == QLatin1String("fair_lock"))
        QCOMPARE(server().command({"LLEN", "redisson_lock_queue:{orders}"}).integer, 2);
}

void TestForceReleaseRedisson::redissonTwoReadersLoseOnlyOne()
{
    addReader(server(), "catalog", readerA);
    addReader(server(), "catalog", readerB);
    PublishListener listener(server());
    QVERIFY(listener.ready(server()));
    const ForceReleasePlan plan = m_cluster->inspect(forceReleaseRequest("catalog", readerA));
    QCOMPARE(plan.targets.first().step.kind, ForceReleaseStep::Kind::RemoveHolders);
    const ForceReleaseOutcome o = m_cluster->execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::Done);
    QCOMPARE(o.results.first().action, Action::HolderRemoved);
    QCOMPARE(server().command({"HEXISTS", "catalog", readerA}).integer, 0);
    QCOMPARE(server().command({"HGET", "catalog", readerB}).string, QByteArray("1"));
    QCOMPARE(server().command({"HGET", "catalog", "mode"}).string, QByteArray("read"));
    QCOMPARE(server().command({"EXISTS", QByteArray("{catalog}:") + readerA + ":rwlock_timeout:1"}).integer,
             0);
    QCOMPARE(server().command({"EXISTS", QByteArray("{catalog}:") + readerB + ":rwlock_timeout:1"}).integer,
             1);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    // The lock is still held by B: nobody is woken.
    QTest::qWait(100);
    QVERIFY(listener.messages.isEmpty());
}

void TestForceReleaseRedisson::redissonWholeHolderSetAsListed()
{
    addReader(server(), "catalog", readerA);
    addReader(server(), "catalog", readerB);
    // `lockctl list` prints the holders sorted and joined by ','.
    const QByteArray listed =
        m_cluster->inspect(forceReleaseRequest("catalog", readerA)).targets.first().lock.token;
    QCOMPARE(listed, QByteArray(readerB) + ',' + readerA);
    PublishListener listener(server());
    QVERIFY(listener.ready(server()));
    const ForceReleasePlan plan = m_cluster->inspect(forceReleaseRequest("catalog", listed));
    QCOMPARE(plan.targets.first().step.kind, ForceReleaseStep::Kind::Delete);
    const ForceReleaseOutcome o = m_cluster->execute(plan);
    QCOMPARE(o.results.first().action, Action::Deleted);
    QCOMPARE(server().command({"EXISTS", "catalog"}).integer, 0);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QVERIFY(QTest::qWaitFor([&] { return !listener.messages.isEmpty(); },
                            int(lockscope::test::upperBoundMs(3000))));
    QCOMPARE(listener.messages.first(), (QByteArrayList{"redisson_rwlock:{catalog}", "0"}));
}

void TestForceReleaseRedisson::redissonReaderJoinedAfterTheLook()
{
    // One reader, to be removed with the key; C joins between the look and the confirmation.
    addReader(server(), "catalog", readerA);
    ForceReleasePlan plan = m_cluster->inspect(forceReleaseRequest("catalog", readerA));
    QCOMPARE(plan.targets.first().step.kind, ForceReleaseStep::Kind::Delete);
    addReader(server(), "catalog", readerC);
    ForceReleaseOutcome o = m_cluster->execute(plan);
    QCOMPARE(o.verdict, WriteVerdict::NotDone);
    QCOMPARE(o.results.first().action, Action::Spared);
    QVERIFY2(o.results.first().detail.contains(QLatin1String("joined")),
             qPrintable(o.results.first().detail));
    QVERIFY(o.results.first().commands.isEmpty());
    QCOMPARE(server().command({"HGET", "catalog", readerA}).string, QByteArray("1"));
    QCOMPARE(server().command({"HGET", "catalog", readerC}).string, QByteArray("1"));

    // Two readers seen, A to go and B to stay; C joins: A goes, B and C stay, as planned.
    server().command({"DEL", "catalog"});
    addReader(server(), "catalog", readerA);
    addReader(server(), "catalog", readerB);
    plan = m_cluster->inspect(forceReleaseRequest("catalog", readerA));
    addReader(server(), "catalog", readerC);
    o = m_cluster->execute(plan);
    QCOMPARE(o.results.first().action, Action::HolderRemoved);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QCOMPARE(server().command({"HEXISTS", "catalog", readerA}).integer, 0);
    QCOMPARE(server().command({"HEXISTS", "catalog", readerB}).integer, 1);
    QCOMPARE(server().command({"HEXISTS", "catalog", readerC}).integer, 1);
}

void TestForceReleaseRedisson::redissonReenteredLock()
{
    for (int i = 0; i < 3; ++i)
        server().command({"HINCRBY", "orders", readerA, "1"});
    server().command({"PEXPIRE", "orders", "30000"});
    ForceReleasePlan plan = m_cluster->inspect(forceReleaseRequest("orders", readerA));
    QCOMPARE(plan.targets.first().step.removedHolders.first().second, qint64(3));
    QVERIFY2(plan.targets.first().step.summary().contains(QLatin1String("entered 3 times")),
             qPrintable(plan.targets.first().step.summary()));
    // The holder enters once more after the look: it is alive, and spared.
    server().command({"HINCRBY", "orders", readerA, "1"});
    ForceReleaseOutcome o = m_cluster->execute(plan);
    QCOMPARE(o.results.first().action, Action::Spared);
    QCOMPARE(server().command({"HGET", "orders", readerA}).string, QByteArray("4"));
    plan = m_cluster->inspect(forceReleaseRequest("orders", readerA));
    o = m_cluster->execute(plan);
    QCOMPARE(o.results.first().action, Action::Deleted);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QCOMPARE(server().command({"EXISTS", "orders"}).integer, 0);

    // A reader entered twice has two lease keys: both go with it.
    addReader(server(), "catalog", readerA, 2);
    addReader(server(), "catalog", readerB);
    plan = m_cluster->inspect(forceReleaseRequest("catalog", readerA));
    QCOMPARE(plan.targets.first().step.leaseKeys.size(), 2);
    o = m_cluster->execute(plan);
    QCOMPARE(o.results.first().action, Action::HolderRemoved);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QCOMPARE(server().command({"KEYS", QByteArray("{catalog}:") + readerA + "*"}).elements.size(), 0);
}

void TestForceReleaseRedisson::redissonPreviewEqualsWhatHappens()
{
    // A writer whose thread also holds a read lock: its unlock leaves the read lock, in read mode.
    const QByteArray writer = QByteArray(readerA) + ":write";
    server().command({"HSET", "prices", "mode", "write", writer, "1"});
    server().command({"HSET", "prices", readerA, "1"});
    server().command({"PEXPIRE", "prices", "30000"});
    const ForceReleasePlan plan = m_cluster->inspect(forceReleaseRequest("prices", writer));
    QCOMPARE(plan.targets.first().step.kind, ForceReleaseStep::Kind::RemoveHolders);
    QCOMPARE(plan.targets.first().step.commands.last(), (QByteArrayList{"HSET", "prices", "mode", "read"}));
    const ForceReleaseOutcome o = m_cluster->execute(plan);
    QCOMPARE(o.results.first().commands, plannedCommands(plan, 0));
    QCOMPARE(server().command({"HGET", "prices", "mode"}).string, QByteArray("read"));
    QCOMPARE(server().command({"HEXISTS", "prices", writer}).integer, 0);
    QCOMPARE(server().command({"HEXISTS", "prices", readerA}).integer, 1);
}

void TestForceReleaseRedisson::redissonOnAClusterPublishesSharded()
{
    RedisClusterGroup cluster;
    QVERIFY2(cluster.start(3, 0), qPrintable(cluster.errorString()));
    const int primary = cluster.primaryForSlot(ClusterKeySlot::of("lock:orders"));
    QVERIFY(primary >= 0);
    const RedisServer& node = cluster.at(primary);
    node.command({"HINCRBY", "lock:orders", readerA, "1"});
    node.command({"PEXPIRE", "lock:orders", "30000"});
    // A Redisson waiter on a Redis 7 cluster: SSUBSCRIBE on the shard of its lock.
    QTcpSocket waiter;
    waiter.connectToHost(QHostAddress::LocalHost, node.port());
    QVERIFY(waiter.waitForConnected(int(lockscope::test::upperBoundMs(5000))));
    const QByteArray password = node.options().password.toUtf8();
    waiter.write("*2\r\n$4\r\nAUTH\r\n$" + QByteArray::number(password.size()) + "\r\n" + password + "\r\n");
    waiter.write("*2\r\n$10\r\nSSUBSCRIBE\r\n$36\r\nredisson_lock__channel:{lock:orders}\r\n");
    QByteArray heard;
    QVERIFY(QTest::qWaitFor(
        [&] {
            heard += waiter.readAll();
            return heard.contains("ssubscribe");
        },
        int(lockscope::test::upperBoundMs(5000))));
    heard.clear();

    LockScopeConfig config;
    config.masters = {groupMaster(cluster.url(1))};
    MasterSet masters(config.masters);
    masters.open();
    QVERIFY(
        QTest::qWaitFor([&] { return masters.upCount() == 1; }, int(lockscope::test::upperBoundMs(10000))));
    const std::optional<ForceReleasePlan> plan =
        inspectForceRelease(masters, config, forceReleaseRequest("lock:orders", readerA));
    QVERIFY(plan);
    QCOMPARE(plan->targets.first().step.commands.last(),
             (QByteArrayList{"SPUBLISH", "redisson_lock__channel:{lock:orders}", "0"}));
    const std::optional<ForceReleaseOutcome> outcome = executeForceRelease(masters, config, nullptr, *plan);
    QVERIFY(outcome);
    QCOMPARE(outcome->results.first().action, Action::Deleted);
    QCOMPARE(outcome->results.first().commands, plan->targets.first().step.commands);
    QVERIFY(QTest::qWaitFor(
        [&] {
            heard += waiter.readAll();
            return heard.contains("smessage");
        },
        int(lockscope::test::upperBoundMs(5000))));
    QVERIFY(heard.contains("redisson_lock__channel:{lock:orders}"));
    QCOMPARE(node.command({"EXISTS", "lock:orders"}).integer, 0);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestForceReleaseRedisson)

} // namespace tst_forcerelease_redisson

#include "tst_forcerelease_redisson.moc"
