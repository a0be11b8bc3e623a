// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "diagnosis/diagnosis.h"
#include "diagnosis/diagnosisreader.h"
#include "diagnosis/lockstorytracker.h"
#include "diagnosis/waiterwatch.h"
#include "monitor/lockmonitor.h"
#include "support/lockctldiagnosis.h"
#include "support/lockctlrun.h"
#include "support/quickconfig.h"
#include "support/rediscliprocess.h"
#include "support/redisclustergroup.h"
#include "support/redisserver.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <memory>

namespace tst_diagnosis {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// A Redisson instance id, and one of its threads' hash field.
const QByteArray instance = "b3f1c9e2-5a4d-4e0b-9c1f-7d2e8a6b4c10";
const QByteArray field = instance + ":57";

qint64 subscribers(const RedisServer& server, const QByteArray& channel)
{
    const RedisReply r = server.command({"PUBSUB", "NUMSUB", channel});
    return r.elements.size() == 2 ? r.elements.at(1).integer : -1;
}

bool clientNamed(const RedisServer& server, const QByteArray& name)
{
    return server.command({"CLIENT", "LIST"}).string.contains(QByteArray("name=" + name + ' '));
}

// A monitor, a story tracker fed by its batches and a reader: the window's diagnosis, headless.
struct Watch
{
    explicit Watch(RedisServerGroup& group)
    {
        LockScopeConfig config = quickConfig(group);
        config.monitor.patterns = {ScanPattern("*")};
        masters = std::make_unique<MasterSet>(config.masters);
        monitor = std::make_unique<LockMonitor>(masters.get(), config);
        reader = std::make_unique<DiagnosisReader>(masters.get());
        QObject::connect(monitor.get(), &LockMonitor::locksChanged, monitor.get(),
                         [this](const LockBatch& b) {
                             tracker.observe(b, QDateTime::currentMSecsSinceEpoch(), monotonicMs());
                         });
        masters->open();
        monitor->start();
    }
    QList<Diagnosis> diagnose(const QByteArray& resource, const DiagnosisFacts& facts = {}) const
    {
        DiagnosisContext c;
        c.settings = settings;
        c.nowMs = QDateTime::currentMSecsSinceEpoch();
        c.monotonicNowMs = monotonicMs();
        const LockView view = monitor->locks().value(resource);
        return LockDiagnosis::diagnose(view, tracker.story(resource, view.token), facts, c);
    }
    bool holds(const QByteArray& resource, DiagnosisCode code) const
    {
        for (const Diagnosis& d : diagnose(resource))
            if (d.code == code)
                return true;
        return false;
    }
    QString sentence(const QByteArray& resource, DiagnosisCode code) const
    {
        for (const Diagnosis& d : diagnose(resource))
            if (d.code == code)
                return d.sentence;
        return QString();
    }
    DiagnosisFacts read(const QByteArray& resource)
    {
        std::optional<DiagnosisFacts> facts;
        reader->read(monitor->locks().value(resource), [&](const DiagnosisFacts& f) { facts = f; });
        // On a time-out the empty facts fail the caller's checks, which say what was missing.
        if (!QTest::qWaitFor([&] { return facts.has_value(); }, int(lockscope::test::upperBoundMs(5000))))
            qWarning("no diagnosis facts for %s within 5 s", resource.constData());
        return facts.value_or(DiagnosisFacts());
    }

    std::unique_ptr<MasterSet> masters;
    std::unique_ptr<LockMonitor> monitor;
    std::unique_ptr<DiagnosisReader> reader;
    LockStoryTracker tracker;
    DiagnosisSettings settings;
};

} // namespace

class TestDiagnosis : public QObject
{
    Q_OBJECT

private slots:
    void noExpiryAndTimestampPast();
    void redissonWaiterAndFairQueue();
    void waiterWatchAnnouncesChangesAndKeepsToItsCap();
    void shardedWaiterOnACluster();
    void ownerConnectionMatchedThenGone();
    void quorumLostAfterKillingMasters();
    void contestedAndAtRiskAfterARestart();
    void runawayRenewalLoopThenHolderStops();
};

void TestDiagnosis::noExpiryAndTimestampPast()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    // A holder that set no TTL, and a legacy SETNX lock whose timestamp passed a minute ago.
    group.at(0).command({"SET", "lock:forever", "c0ffee", "NX"});
    const qint64 past = QDateTime::currentSecsSinceEpoch() - 60;
    group.at(0).command({"SETNX", "batch.lock", QByteArray::number(past)});
    const QHash<QString, QJsonArray> d = listDiagnoses(group.urls(false));
    QCOMPARE(codesOf(d.value(QStringLiteral("lock:forever"))), QStringList{QStringLiteral("no-expiry")});
    QVERIFY2(sentenceOf(d.value(QStringLiteral("lock:forever")), QStringLiteral("no-expiry"))
                 .contains(QStringLiteral("token c0ffee holds it with no TTL on ") + group.urls(false).at(0)),
             qPrintable(sentenceOf(d.value(QStringLiteral("lock:forever")), QStringLiteral("no-expiry"))));
    QCOMPARE(codesOf(d.value(QStringLiteral("batch.lock"))), QStringList{QStringLiteral("timestamp-past")});
    const QString when =
        QDateTime::fromSecsSinceEpoch(past, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    QVERIFY2(
        sentenceOf(d.value(QStringLiteral("batch.lock")), QStringLiteral("timestamp-past")).contains(when),
        qPrintable(sentenceOf(d.value(QStringLiteral("batch.lock")), QStringLiteral("timestamp-past"))));
}

void TestDiagnosis::redissonWaiterAndFairQueue()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    // Redisson's layout (shared/reference/lock-formats.md): the hash, a 30 s watchdog lease.
    server.command({"HSET", "orders", field, "1"});
    server.command({"PEXPIRE", "orders", "30000"});
    server.command({"HSET", "fair", field, "1"});
    server.command({"PEXPIRE", "fair", "30000"});
    // Two real waiting clients, subscribed to the lock's channel as Redisson's waiters are.
    const QByteArray channel = "redisson_lock__channel:{orders}";
    auto waiter1 = startCli(server, {QStringLiteral("SUBSCRIBE"), QString::fromLatin1(channel)});
    auto waiter2 = startCli(server, {QStringLiteral("SUBSCRIBE"), QString::fromLatin1(channel)});
    QTRY_COMPARE_WITH_TIMEOUT(subscribers(server, channel), 2, 5000);
    // A fair lock's queue: two threads of another instance, each with its deadline.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    server.command({"RPUSH", "redisson_lock_queue:{fair}", "u2:61", "u2:62"});
    server.command({"ZADD", "redisson_lock_timeout:{fair}", QByteArray::number(now + 45'000), "u2:61",
                    QByteArray::number(now + 50'000), "u2:62"});

    const QHash<QString, QJsonArray> d = listDiagnoses(group.urls(false));
    const QString waiting = sentenceOf(d.value(QStringLiteral("orders")), QStringLiteral("waiters"));
    QVERIFY2(waiting.contains(
                 QStringLiteral("2 client(s) wait for it (subscribed to redisson_lock__channel:{orders}")),
             qPrintable(waiting));
    const QString queued = sentenceOf(d.value(QStringLiteral("fair")), QStringLiteral("waiters"));
    const QString deadline = QDateTime::fromMSecsSinceEpoch(now + 45'000, Qt::UTC)
                                 .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    QVERIFY2(queued.contains(QStringLiteral("the fair lock's queue holds 2: u2:61 until ") + deadline) &&
                 queued.contains(QStringLiteral("u2:62 until")),
             qPrintable(queued));
    // The waiters leave: nothing waits any more.
    stopCli(waiter1);
    stopCli(waiter2);
    QTRY_COMPARE_WITH_TIMEOUT(subscribers(server, channel), 0, 5000);
    QVERIFY(!codesOf(listDiagnoses(group.urls(false)).value(QStringLiteral("orders")))
                 .contains(QStringLiteral("waiters")));
}

// What a recording keeps of Redisson's waiters (issue #44): a change of count is announced (not the
// first 0), and a million per-entity locks are not all watched at once.
void TestDiagnosis::waiterWatchAnnouncesChangesAndKeepsToItsCap()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    for (const char* name : {"orders", "other"}) {
        server.command({"HSET", name, field, "1"});
        server.command({"PEXPIRE", name, "600000"});
    }
    server.command({"SET", "plain", "0123456789abcdef0123456789abcdef", "PX", "600000"});
    Watch w(group);
    QTRY_COMPARE_WITH_TIMEOUT(w.monitor->locks().size(), 3, 10000);
    WaiterWatch watch(w.masters.get(), w.monitor.get(), 50);
    QList<std::pair<QByteArray, qint64>> told;
    QObject::connect(&watch, &WaiterWatch::waitersChanged,
                     [&](int master, const QByteArray& resource, qint64 count) {
                         QCOMPARE(master, 0);
                         told << std::pair{resource, count};
                     });
    watch.start();
    QCOMPARE(watch.watched(), 2); // a SET lock records no waiters
    QTest::qWait(300);
    QVERIFY(told.isEmpty()); // nobody waits: nothing to say
    const QString channel = QStringLiteral("redisson_lock__channel:{orders}");
    auto waiter1 = startCli(server, {QStringLiteral("SUBSCRIBE"), channel});
    auto waiter2 = startCli(server, {QStringLiteral("SUBSCRIBE"), channel});
    QTRY_VERIFY_WITH_TIMEOUT(!told.isEmpty() && told.last().second == 2, 10000);
    stopCli(waiter1);
    QTRY_VERIFY_WITH_TIMEOUT(told.last().second == 1, 10000);
    // Released, several rounds pass while it is free, and the last waiter takes it: 0 is told,
    // although the lock was gone from the watch in between.
    server.command({"DEL", "orders"});
    QTRY_VERIFY_WITH_TIMEOUT(!w.monitor->locks().contains("orders"), 10000);
    QTest::qWait(300);
    stopCli(waiter2);
    server.command({"HSET", "orders", field, "1"});
    server.command({"PEXPIRE", "orders", "600000"});
    QTRY_VERIFY_WITH_TIMEOUT(told.last().second == 0, 10000);
    for (const auto& [resource, count] : std::as_const(told))
        QCOMPARE(resource, QByteArray("orders"));
    // Past the cap, the locks seen later wait for a slot.
    server.command({"EVAL",
                    "for i = 1, 5000 do redis.call('HSET', 'ent:' .. i, ARGV[1], 1); "
                    "redis.call('PEXPIRE', 'ent:' .. i, 600000) end",
                    "0", field});
    QTRY_COMPARE_WITH_TIMEOUT(w.monitor->locks().size(), 5003, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(watch.watched(), WaiterWatch::maxWatched, 5000);
}

void TestDiagnosis::shardedWaiterOnACluster()
{
    RedisClusterGroup cluster;
    QVERIFY2(cluster.start(3, 0), qPrintable(cluster.errorString()));
    const int primary = cluster.primaryIndexes().at(1);
    RedisServer& node = cluster.at(primary);
    const QByteArray name = cluster.keyOn(primary, "orders-");
    node.command({"HSET", name, field, "1"});
    node.command({"PEXPIRE", name, "30000"});
    // Newer Redisson waits with sharded pub/sub on a cluster: SSUBSCRIBE on the node of the slot
    // (the channel's hash tag is the lock's name).
    const QByteArray channel = "redisson_lock__channel:{" + name + '}';
    auto waiter = startCli(node, {QStringLiteral("SSUBSCRIBE"), QString::fromLatin1(channel)});
    QTRY_COMPARE_WITH_TIMEOUT(node.command({"PUBSUB", "SHARDNUMSUB", channel}).elements.value(1).integer, 1,
                              5000);
    const QString waiting = sentenceOf(
        listDiagnoses({cluster.url(1, false)}).value(QString::fromLatin1(name)), QStringLiteral("waiters"));
    QVERIFY2(waiting.contains(QStringLiteral("1 client(s) wait for it (subscribed to ") +
                              QString::fromLatin1(channel)),
             qPrintable(waiting));
    stopCli(waiter);
}

void TestDiagnosis::ownerConnectionMatchedThenGone()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    // The owner is a real client that names its connection after its instance (as Redisson's
    // clientName does) and takes the lock over that connection, then stays connected.
    auto owner = startCli(
        server, {}, "CLIENT SETNAME " + instance + "\nHSET owned " + field + " 1\nPEXPIRE owned 60000\n");
    QTRY_VERIFY_WITH_TIMEOUT(
        clientNamed(server, instance) && server.command({"EXISTS", "owned"}).integer == 1, 5000);
    const QString connected = sentenceOf(listDiagnoses(group.urls(false)).value(QStringLiteral("owned")),
                                         QStringLiteral("owner-connected"));
    QVERIFY2(
        connected.contains(QStringLiteral("client '%1' 127.0.0.1:").arg(QString::fromLatin1(instance))) &&
            connected.contains(QStringLiteral("matched by name")) &&
            connected.contains(QStringLiteral("idle")),
        qPrintable(connected));

    // Watched over time, the owner's connection going away is told.
    Watch w(group);
    QTRY_VERIFY_WITH_TIMEOUT(w.monitor->locks().contains("owned"), 5000);
    DiagnosisFacts facts = w.read("owned");
    QCOMPARE(facts.owners.size(), 1);
    w.tracker.noteOwners("owned", facts, QDateTime::currentMSecsSinceEpoch());
    stopCli(owner);
    QTRY_VERIFY_WITH_TIMEOUT(!clientNamed(server, instance), 5000);
    facts = w.read("owned");
    QVERIFY(facts.owners.isEmpty());
    const QList<Diagnosis> ds = w.diagnose("owned", facts);
    QCOMPARE(ds.size(), 1);
    QCOMPARE(ds.at(0).code, DiagnosisCode::OwnerDisconnected);
    QVERIFY2(ds.at(0).sentence.contains(QString::fromLatin1(instance)), qPrintable(ds.at(0).sentence));
}

void TestDiagnosis::quorumLostAfterKillingMasters()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:report", "a1b2c3", "NX", "PX", "120000"});
    QVERIFY(listDiagnoses(group.urls(false)).value(QStringLiteral("lock:report")).isEmpty());
    group.at(1).kill();
    group.at(2).kill();
    int code = 0;
    const QJsonArray d = listDiagnoses(group.urls(false), &code).value(QStringLiteral("lock:report"));
    QCOMPARE(codesOf(d), QStringList{QStringLiteral("quorum-lost")});
    QVERIFY2(sentenceOf(d, QStringLiteral("quorum-lost"))
                 .contains(QStringLiteral("2 of 3 masters cannot be reached")),
             qPrintable(sentenceOf(d, QStringLiteral("quorum-lost"))));
    QVERIFY(code != 0);
}

void TestDiagnosis::contestedAndAtRiskAfterARestart()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    // Two clients each took the lock on a different majority's worth of masters... or believe so.
    group.at(0).command({"SET", "lock:split", "aaaa1111", "PX", "120000"});
    group.at(1).command({"SET", "lock:split", "aaaa1111", "PX", "120000"});
    group.at(2).command({"SET", "lock:split", "bbbb2222", "PX", "120000"});
    const QJsonArray d = listDiagnoses(group.urls(false)).value(QStringLiteral("lock:split"));
    QCOMPARE(codesOf(d), QStringList{QStringLiteral("contested")});
    QVERIFY2(sentenceOf(d, QStringLiteral("contested"))
                 .contains(QStringLiteral("bbbb2222 on ") + group.urls(false).at(2)),
             qPrintable(sentenceOf(d, QStringLiteral("contested"))));

    // A master holding a healthy lock restarts (empty, new run_id) while it is watched: at risk.
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:held", "cccc3333", "PX", "120000"});
    Watch w(group);
    QTRY_COMPARE_WITH_TIMEOUT(w.monitor->locks().value("lock:held")->status, LockStatus::Held, 5000);
    QVERIFY(w.diagnose("lock:held").isEmpty());
    QVERIFY(group.at(0).restart());
    QTRY_VERIFY_WITH_TIMEOUT(w.holds("lock:held", DiagnosisCode::AtRisk), 10000);
    QVERIFY2(w.sentence("lock:held", DiagnosisCode::AtRisk).contains(QStringLiteral("token cccc3333")),
             qPrintable(w.sentence("lock:held", DiagnosisCode::AtRisk)));
}

void TestDiagnosis::runawayRenewalLoopThenHolderStops()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    Watch w(group);
    w.settings.heldTooLongFactor = 0.5; // N is configurable: held over half its 6 s lease is "too long" here
    // A real client process takes the lock and renews it every 0.3 s, forever: a renewal loop.
    server.command({"SET", "lock:runaway", "feedface", "PX", "6000"});
    auto loop = startCli(server, {QStringLiteral("-r"), QStringLiteral("-1"), QStringLiteral("-i"),
                                  QStringLiteral("0.3"), QStringLiteral("PEXPIRE"),
                                  QStringLiteral("lock:runaway"), QStringLiteral("6000")});
    QTRY_VERIFY_WITH_TIMEOUT(w.holds("lock:runaway", DiagnosisCode::HeldTooLong), 15000);
    const QString tooLong = w.sentence("lock:runaway", DiagnosisCode::HeldTooLong);
    QVERIFY2(tooLong.contains(QStringLiteral("its 6.0 s lease")), qPrintable(tooLong));
    const QByteArray token = w.monitor->locks().value("lock:runaway")->token;
    QVERIFY2(w.tracker.story("lock:runaway", token).extensions >= 3, qPrintable(tooLong));
    QVERIFY(!w.holds("lock:runaway", DiagnosisCode::NotRenewed));

    // The holder stops renewing: the TTL runs down, and the diagnosis says so before it expires.
    stopCli(loop);
    QTRY_VERIFY_WITH_TIMEOUT(w.holds("lock:runaway", DiagnosisCode::NotRenewed), 5000);
    const QString stopped = w.sentence("lock:runaway", DiagnosisCode::NotRenewed);
    QVERIFY2(stopped.contains(QStringLiteral("the holder likely stopped")) &&
                 stopped.contains(QStringLiteral("run down from ")),
             qPrintable(stopped));
    QVERIFY(server.command({"PTTL", "lock:runaway"}).integer > 0);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestDiagnosis)

} // namespace tst_diagnosis

#include "tst_diagnosis.moc"
