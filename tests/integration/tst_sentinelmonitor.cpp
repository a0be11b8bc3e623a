// SPDX-License-Identifier: Apache-2.0
#include "config/configloader.h"
#include "discovery/masterscanner.h"
#include "monitor/failoverreport.h"
#include "monitor/lockmonitor.h"
#include "support/blockingcommand.h"
#include "support/groupmaster.h"
#include "support/lockctlrun.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/sentinelchecks.h"
#include "support/sentinelgroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "support/watchevents.h"
#include "topology/masterset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <csignal>

namespace tst_sentinelmonitor {

using namespace lockscope;
using namespace lockscope::test;

namespace {
// The watchers' command timeout: a loaded or sanitized run must not time a healthy master out, since
// a watcher that reconnects after the test changed the primary's password stays locked out of it.
const QString watchTimeout = QString::number(upperBoundMs(1000));
} // namespace

namespace {

// lockctl list --json over these masters, the fixture password from the environment.
QJsonObject listJson(const QStringList& masters, int* code)
{
    QStringList args = testPasswordArgs(); // for the masters given without it
    for (const QString& m : masters)
        args << QStringLiteral("-m") << m;
    return runLockctlJson(args << QStringLiteral("list"), code);
}

} // namespace

// A Sentinel group as one master entry of the monitor and of lockctl, with real processes: a group
// of 1 primary, 1 replica and 3 sentinels (1 s down-after), next to plain masters.
class TestSentinelMonitor : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void scansThroughSentinelEntryAlongsidePlainMasters();
    void lockctlListShowsTheGroupAndItsPrimary();
    void failoverDuringLockctlWatchNamesTheLostLock();
    void failoverHazardMarkedAtRiskAndReported();
    void badSentinelUrlIsAClearUsageError();
    void unreachableSentinelGroupLeavesTheQuorumToTheOthers();

private:
    SentinelGroup m_group; // never failed over: the tests that fail over start their own
    RedisServerGroup m_plain;
};

void TestSentinelMonitor::initTestCase()
{
    qRegisterMetaType<NodeAddress>();
    qRegisterMetaType<PrimaryChange>();
    qRegisterMetaType<FailoverReport>();
    qRegisterMetaType<RedisError>();
    QVERIFY2(m_group.start(), qPrintable(m_group.errorString()));
    QCOMPARE(m_group.primaryIndex(), 0);
    QVERIFY2(m_plain.start(2), qPrintable(m_plain.errorString()));
}

void TestSentinelMonitor::scansThroughSentinelEntryAlongsidePlainMasters()
{
    RedisServer& primary = m_group.dataNode(0);
    for (RedisServer* s : {&m_plain.at(0), &primary, &m_plain.at(1)})
        QCOMPARE(s->command({"SET", "lock:scan", "token-1", "PX", "600000"}).string, QByteArray("OK"));
    QList<ConnectionOptions> options{m_plain.at(0).connectionOptions(1000), groupMaster(m_group.url()),
                                     m_plain.at(1).connectionOptions(1000)};
    MasterSet masters(options);
    // The group counts once: three entries, a quorum of two.
    QCOMPARE(masters.size(), 3);
    QCOMPARE(masters.needed(), 2);
    QVERIFY(masters.isSentinel(1));
    QVERIFY(!masters.isSentinel(0));
    QCOMPARE(masters.at(1)->name(), m_group.url(false));
    QSignalSpy resolved(&masters, &MasterSet::primaryResolved);
    LockMonitor monitor(&masters, pollingConfig(500));
    QSignalSpy initial(&monitor, &LockMonitor::initialScanFinished);
    masters.open();
    monitor.start();
    QTRY_COMPARE_WITH_TIMEOUT(resolved.size(), 1, 20000);
    QCOMPARE(resolved.at(0).at(0).toInt(), 1);
    QCOMPARE(masters.primaryAddress(1).port, primary.port());
    QTRY_VERIFY_WITH_TIMEOUT(masters.at(1)->isUp(), 20000);
    QCOMPARE(masters.at(1)->options().url.port(), primary.port());
    QTRY_VERIFY_WITH_TIMEOUT(
        monitor.locks().contains("lock:scan") && monitor.locks().value("lock:scan")->holding == 3, 20000);
    const LockView view = monitor.locks().value("lock:scan");
    QCOMPARE(view.status, LockStatus::Held);
    QCOMPARE(view.total, 3);
    QCOMPARE(view.needed, 2);
    QVERIFY(!view.atRisk);
    for (RedisServer* s : {&m_plain.at(0), &primary, &m_plain.at(1)})
        s->command({"DEL", "lock:scan"});
}

void TestSentinelMonitor::lockctlListShowsTheGroupAndItsPrimary()
{
    RedisServer& primary = m_group.dataNode(0);
    for (RedisServer* s : {&m_plain.at(0), &primary, &m_plain.at(1)})
        QCOMPARE(s->command({"SET", "lock:list", "token-2", "PX", "600000"}).string, QByteArray("OK"));
    int code = -1;
    const QJsonObject out =
        listJson({m_plain.at(0).url(false), m_group.url(false), m_plain.at(1).url(false)}, &code);
    QCOMPARE(code, 0);
    const QJsonArray masters = out.value(QStringLiteral("masters")).toArray();
    QCOMPARE(masters.size(), 3);
    const QJsonObject group = masters.at(1).toObject();
    verifySentinelListing(group, m_group.url(false), primary.port());
    if (QTest::currentTestFailed())
        return;
    QVERIFY(!masters.at(0).toObject().contains(QStringLiteral("sentinel")));
    const QJsonArray locks = out.value(QStringLiteral("locks")).toArray();
    QCOMPARE(locks.size(), 1);
    const QJsonObject quorum = locks.at(0).toObject().value(QStringLiteral("quorum")).toObject();
    QCOMPARE(quorum.value(QStringLiteral("holding")).toInt(), 3);
    QCOMPARE(quorum.value(QStringLiteral("total")).toInt(), 3);

    // The text form names the primary too.
    const LockctlRun text = runLockctl(
        testPasswordArgs() << QStringLiteral("-m") << m_group.url(false) << QStringLiteral("list"), 60000);
    QCOMPARE(text.code, 0);
    QVERIFY2(
        text.out.contains(
            QStringLiteral("%1: primary 127.0.0.1:%2").arg(m_group.url(false)).arg(primary.port()).toUtf8()),
        qPrintable(text.describe()));
    for (RedisServer* s : {&m_plain.at(0), &primary, &m_plain.at(1)})
        s->command({"DEL", "lock:list"});
}

void TestSentinelMonitor::failoverDuringLockctlWatchNamesTheLostLock()
{
    SentinelGroup group;
    QVERIFY2(group.start(), qPrintable(group.errorString()));
    RedisServer& primary = group.dataNode(0);
    RedisServer& replica = group.dataNode(1);
    // Replicated before the failover: survives it.
    QCOMPARE(primary.command({"SET", "lock:kept", "token-kept", "PX", "600000"}).string, QByteArray("OK"));
    QCOMPARE(primary.command({"WAIT", "1", "5000"}).integer, 1);

    QProcess watch;
    watch.setProcessEnvironment(testPasswordEnvironment());
    watch.start(lockctlPath(),
                testPasswordArgs() + QStringList{QStringLiteral("--json"), QStringLiteral("--timeout-ms"),
                                                 watchTimeout, QStringLiteral("-m"), group.url(false),
                                                 QStringLiteral("watch")});
    QVERIFY(watch.waitForStarted());
    // The same failover as text, side by side.
    QProcess textWatch;
    textWatch.setProcessEnvironment(testPasswordEnvironment());
    textWatch.start(lockctlPath(),
                    testPasswordArgs() + QStringList{QStringLiteral("--timeout-ms"), watchTimeout,
                                                     QStringLiteral("-m"), group.url(false),
                                                     QStringLiteral("watch")});
    QVERIFY(textWatch.waitForStarted());
    QByteArray text;
    const auto textSays = [&](const QByteArray& part) {
        text += textWatch.readAllStandardOutput();
        return text.contains(part);
    };
    WatchEvents events(watch);
    const auto find = [&](const QString& event, const QString& key, const QString& value) {
        return events.find(event, key, value);
    };
    QTRY_VERIFY_WITH_TIMEOUT(
        !find(QStringLiteral("added"), QStringLiteral("resource"), QStringLiteral("lock:kept")).isEmpty(),
        30000);
    const QJsonObject up = find(QStringLiteral("master"), QStringLiteral("state"), QStringLiteral("up"));
    QCOMPARE(up.value(QStringLiteral("master")).toString(), group.url(false));
    QCOMPARE(up.value(QStringLiteral("detail")).toString(),
             QStringLiteral("primary 127.0.0.1:%1").arg(primary.port()));

    // Cut replication without touching the replica, then write a lock
    // the replica never receives.
    // The replica may not resync (it replicates as `default`, which loses the replication commands);
    // every other client, the watchers' new connections included, works as before.
    QCOMPARE(primary.command({"ACL", "SETUSER", "default", "-psync", "-sync", "-replconf"}).string,
             QByteArray("OK"));
    const auto ask = [&primary](const QByteArrayList& argv) { return primary.command(argv); };
    QVERIFY(ask({"CLIENT", "KILL", "TYPE", "replica"}).integer >= 1);
    QCOMPARE(ask({"SET", "lock:lost", "token-lost", "NX", "PX", "600000"}).string, QByteArray("OK"));
    QCOMPARE(ask({"WAIT", "1", "100"}).integer, 0);
    QTRY_VERIFY_WITH_TIMEOUT(
        !find(QStringLiteral("added"), QStringLiteral("resource"), QStringLiteral("lock:lost")).isEmpty(),
        30000);

    QTRY_VERIFY2_WITH_TIMEOUT(textSays("lock:lost"), text.right(2000).constData(), 30000);

    primary.kill();
    QTRY_VERIFY_WITH_TIMEOUT(
        !find(QStringLiteral("failover"), QStringLiteral("master"), group.url(false)).isEmpty(), 120000);
    const QJsonObject failover = find(QStringLiteral("failover"), QStringLiteral("master"), group.url(false));
    QCOMPARE(failover.value(QStringLiteral("from")).toString(),
             QStringLiteral("127.0.0.1:%1").arg(primary.port()));
    QCOMPARE(failover.value(QStringLiteral("to")).toString(),
             QStringLiteral("127.0.0.1:%1").arg(replica.port()));
    QCOMPARE(failover.value(QStringLiteral("lost")).toArray(), QJsonArray{QStringLiteral("lock:lost")});
    QCOMPARE(failover.value(QStringLiteral("changedToken")).toArray(), QJsonArray());
    QCOMPARE(failover.value(QStringLiteral("atRisk")).toArray(),
             (QJsonArray{QStringLiteral("lock:kept"), QStringLiteral("lock:lost")}));
    QVERIFY(failover.contains(QStringLiteral("time")));
    // The failover is said once, as such: the new node's other run_id is not a restart.
    QVERIFY(find(QStringLiteral("master"), QStringLiteral("state"), QStringLiteral("restarted")).isEmpty());
    ::kill(pid_t(watch.processId()), SIGINT);
    QVERIFY(watch.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(watch.exitCode(), 0);
    const QByteArray textLine = QStringLiteral("failover  %1  127.0.0.1:%2 → 127.0.0.1:%3  2 at risk, lost: "
                                               "lock:lost, changed token: none")
                                    .arg(group.url(false))
                                    .arg(primary.port())
                                    .arg(replica.port())
                                    .toUtf8();
    QTRY_VERIFY2_WITH_TIMEOUT(textSays(textLine), text.constData(), 30000);
    ::kill(pid_t(textWatch.processId()), SIGINT);
    QVERIFY(textWatch.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(textWatch.exitCode(), 0);

    // Afterwards, list shows the group up on the new primary, with the lock that survived.
    int code = -1;
    const QJsonObject out = listJson({group.url(false)}, &code);
    QCOMPARE(code, 0);
    const QJsonObject master = out.value(QStringLiteral("masters")).toArray().at(0).toObject();
    QCOMPARE(master.value(QStringLiteral("up")).toBool(), true);
    QCOMPARE(master.value(QStringLiteral("primary")).toString(),
             QStringLiteral("127.0.0.1:%1").arg(replica.port()));
    const QJsonArray locks = out.value(QStringLiteral("locks")).toArray();
    QCOMPARE(locks.size(), 1);
    QCOMPARE(locks.at(0).toObject().value(QStringLiteral("resource")).toString(),
             QStringLiteral("lock:kept"));
}

void TestSentinelMonitor::failoverHazardMarkedAtRiskAndReported()
{
    // The double grant: A holds lock:orders on the group (not replicated) and on two plain masters.
    // The primary dies, the replica is promoted without the lock, and B takes it there at once.
    SentinelGroup group;
    QVERIFY2(group.start(), qPrintable(group.errorString()));
    RedisServer& primary = group.dataNode(0);
    RedisServer& replica = group.dataNode(1);
    MasterSet masters({groupMaster(group.url()), m_plain.at(0).connectionOptions(1000),
                       m_plain.at(1).connectionOptions(1000)});
    LockMonitor monitor(&masters, pollingConfig(500, 1000));
    QSignalSpy detected(&monitor, &LockMonitor::failoverDetected);
    QSignalSpy reported(&monitor, &LockMonitor::failoverReported);
    QSignalSpy restarted(&masters, &MasterSet::masterRestarted);
    // B acquires on the promoted replica the moment the failover is known, before the monitor
    // reads the new primary: the report must call it a changed token.
    bool acquiredByB = false;
    connect(&masters, &MasterSet::primaryChanged, this, [&] {
        acquiredByB =
            replica.command({"SET", "lock:orders", "client-B", "NX", "PX", "600000"}).string == "OK";
    });
    masters.open();
    monitor.start();
    QTRY_VERIFY_WITH_TIMEOUT(masters.at(0)->isUp(), 30000);

    // Cut replication, then A's lock goes to the primary only. The replica may not resync (it
    // replicates as `default`, which loses the replication commands); every other client works as before.
    QCOMPARE(primary.command({"ACL", "SETUSER", "default", "-psync", "-sync", "-replconf"}).string,
             QByteArray("OK"));
    const auto ask = [&primary](const QByteArrayList& argv) { return primary.command(argv); };
    QVERIFY(ask({"CLIENT", "KILL", "TYPE", "replica"}).integer >= 1);
    QCOMPARE(ask({"SET", "lock:orders", "client-A", "NX", "PX", "600000"}).string, QByteArray("OK"));
    QCOMPARE(ask({"WAIT", "1", "100"}).integer, 0);
    for (int i = 0; i < 2; ++i)
        QCOMPARE(m_plain.at(i).command({"SET", "lock:orders", "client-A", "PX", "600000"}).string,
                 QByteArray("OK"));
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().value("lock:orders")->holding == 3, 30000);
    QVERIFY(!monitor.locks().value("lock:orders")->atRisk);

    primary.kill();
    QTRY_COMPARE_WITH_TIMEOUT(detected.size(), 1, 120000);
    const auto change = detected.at(0).at(1).value<PrimaryChange>();
    QCOMPARE(change.oldPrimary.port, primary.port());
    QCOMPARE(change.newPrimary.port, replica.port());
    QCOMPARE(detected.at(0).at(2).toInt(), 1);
    const QString reason =
        QStringLiteral("failover 127.0.0.1:%1 → 127.0.0.1:%2").arg(primary.port()).arg(replica.port());
    // The core's view: marked at risk, with the failover as the reason.
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().value("lock:orders")->atRisk, 10000);
    QCOMPARE(monitor.locks().value("lock:orders")->atRiskReason(), reason);
    QVERIFY(acquiredByB);

    FailoverReport report;
    expectFailoverReport(reported, change, "lock:orders", &report);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(report.changedToken.size(), 1);
    QCOMPARE(report.changedToken.at(0).resource, QByteArray("lock:orders"));
    QCOMPARE(report.changedToken.at(0).before, QByteArray("client-A"));
    QCOMPARE(report.changedToken.at(0).after, QByteArray("client-B"));
    QVERIFY(report.hasHazard());

    // Both hold it now: A on the two plain masters (still a quorum), B on the group's new primary.
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().value("lock:orders")->status == LockStatus::Contested, 20000);
    const LockView view = monitor.locks().value("lock:orders");
    QCOMPARE(view.token, QByteArray("client-A"));
    QVERIFY(view.atRisk);
    QCOMPARE(view.atRiskReason(), reason);
    QCOMPARE(masters.primaryAddress(0).port, replica.port());
    QVERIFY(masters.at(0)->isUp());
    // Reported once, as a failover, not also as a restart.
    QCOMPARE(restarted.size(), 0);
    QCOMPARE(detected.size(), 1);
    QCOMPARE(reported.size(), 1);
    for (int i = 0; i < 2; ++i)
        m_plain.at(i).command({"DEL", "lock:orders"});
}

void TestSentinelMonitor::badSentinelUrlIsAClearUsageError()
{
    for (const QString& url :
         {QStringLiteral("redis-sentinel://ops:Sup3rSecret@127.0.0.1:26379"),
          QStringLiteral("redis-sentinel://ops:Sup3rSecret@127.0.0.1:26379,,127.0.0.1:26380/mymaster"),
          QStringLiteral("redis-sentinel://ops:Sup3rSecret@127.0.0.1:99999/mymaster"),
          QStringLiteral("rediss-sentinel://ops:Sup3rSecret@/mymaster")}) {
        const LockctlRun run = runLockctl({QStringLiteral("-m"), m_plain.at(0).url(false),
                                           QStringLiteral("-m"), url, QStringLiteral("list")});
        QVERIFY2(run.code == 2, qPrintable(run.describe()));
        QVERIFY2(run.err.contains("invalid URL"), qPrintable(run.describe()));
        QVERIFY2(!run.err.contains("Sup3rSecret") && !run.out.contains("Sup3rSecret"),
                 qPrintable(run.describe()));
    }
}

void TestSentinelMonitor::unreachableSentinelGroupLeavesTheQuorumToTheOthers()
{
    for (int i = 0; i < 2; ++i)
        QCOMPARE(m_plain.at(i).command({"SET", "lock:two", "token-3", "PX", "600000"}).string,
                 QByteArray("OK"));
    const quint16 first = freeLoopbackPort();
    quint16 second = freeLoopbackPort();
    while (second == first) // a URL that lists a sentinel twice is refused
        second = freeLoopbackPort();
    const QString nowhere =
        QStringLiteral("redis-sentinel://127.0.0.1:%1,127.0.0.1:%2/mymaster").arg(first).arg(second);
    QString wrongName = m_group.url(false);
    wrongName.replace(QStringLiteral("/mymaster"), QStringLiteral("/nosuchmaster"));
    const QList<QPair<QString, QString>> cases{
        {nowhere, QStringLiteral("no sentinel reachable")},
        {wrongName, QStringLiteral("no sentinel knows a master named")}};
    for (const auto& [url, why] : cases) {
        int code = -1;
        const QJsonObject out = listJson({m_plain.at(0).url(false), m_plain.at(1).url(false), url}, &code);
        QCOMPARE(code, 0); // two of three: a quorum
        const QJsonObject group = out.value(QStringLiteral("masters")).toArray().at(2).toObject();
        QCOMPARE(group.value(QStringLiteral("up")).toBool(), false);
        QVERIFY2(group.value(QStringLiteral("error")).toString().contains(why),
                 qPrintable(group.value(QStringLiteral("error")).toString()));
        QCOMPARE(group.value(QStringLiteral("primary")), QJsonValue());
        const QJsonArray locks = out.value(QStringLiteral("locks")).toArray();
        QCOMPARE(locks.size(), 1);
        QCOMPARE(locks.at(0).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("held"));
    }
    for (int i = 0; i < 2; ++i)
        m_plain.at(i).command({"DEL", "lock:two"});
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestSentinelMonitor)

} // namespace tst_sentinelmonitor

#include "tst_sentinelmonitor.moc"
