// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "discovery/entryscanner.h"
#include "discovery/keyspaceeventthrottle.h"
#include "discovery/masterscanner.h"
#include "metrics/lockactivity.h"
#include "monitor/lockmonitor.h"
#include "support/monitorharness.h"
#include "support/monitorrun.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

namespace tst_lockmonitor {

using namespace lockscope;
using namespace lockscope::test;

class TestLockMonitor : public QObject
{
    Q_OBJECT

private slots:
    void everyStatusFromRealMasters();
    void masterLostDuringInitialScanIsNotWaitedFor();
    void liveModeFollowsEvents();
    void aFloodOfTtlChangesIsReportedInPart();
    void reconciliationCatchesWhatEventsMissed();
    void pollingModeWithoutNotifications();
    void noPermissionForConfigMeansPolling();
    void enablingNotificationsIsExplicit();
    void masterDownMakesUndecidableLocksUnknown();
    void masterThatCannotBeScannedIsUnknownNotEmpty();
    void restartMarksLocksAtRisk();
    void largeValuesAndHashesAreCapped();
    void keyThatChangesType();
    void progressReportsScannedVsDbsize();
    void coalescesAFloodOnOneResource();
    void extensionOnEveryMasterReachesTheViewPromptly();
    void forgetsEveryResourceOnceGone();
};

void TestLockMonitor::everyStatusFromRealMasters()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:held", "tok-held", "PX", "60000"});
    group.at(0).command({"SET", "lock:partial", "tok-p", "PX", "60000"});
    group.at(0).command({"SET", "lock:contested", "tok-a", "PX", "60000"});
    group.at(1).command({"SET", "lock:contested", "tok-a", "PX", "60000"});
    group.at(2).command({"SET", "lock:contested", "tok-b", "PX", "60000"});
    group.at(0).command({"SET", "lock:stuck", "forever"});
    group.at(1).command({"SET", "lock:stuck", "forever"});
    group.at(2).command({"SET", "unrelated:key", "x"});

    MonitorHarness h(group);
    QVERIFY(h.waitForInitialScan(5000));
    QCOMPARE(h.monitor->locks().size(), 4);
    QVERIFY(!h.has("unrelated:key"));

    const LockView held = h.view("lock:held");
    QCOMPARE(held.status, LockStatus::Held);
    QCOMPARE(held.token, QByteArray("tok-held"));
    QCOMPARE(held.holding, 3);
    QCOMPARE(held.needed, 2);
    QCOMPARE(held.total, 3);
    QVERIFY(held.validityMs > 55000 && held.validityMs <= 60000);
    QCOMPARE(held.holders, (QList<int>{0, 1, 2}));

    QCOMPARE(h.status("lock:partial"), LockStatus::Partial);
    QCOMPARE(h.view("lock:partial").holding, 1);
    const LockView contested = h.view("lock:contested");
    QCOMPARE(contested.status, LockStatus::Contested);
    QCOMPARE(contested.token, QByteArray("tok-a"));
    QCOMPARE(contested.observations.at(2).lock().token, QByteArray("tok-b"));
    QCOMPARE(h.status("lock:stuck"), LockStatus::Stuck);
    QCOMPARE(h.view("lock:stuck").validityMs, qint64(-1));

    // Released on every master: removed from the view at the next poll.
    QSignalSpy batches(h.monitor.get(), &LockMonitor::locksChanged);
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"DEL", "lock:held"});
    QTRY_VERIFY_WITH_TIMEOUT(!h.has("lock:held"), 3000);
    bool sawRemoval = false;
    for (const QList<QVariant>& b : batches)
        sawRemoval = sawRemoval || b.first().value<LockBatch>().removed.contains("lock:held");
    QVERIFY(sawRemoval);
}

void TestLockMonitor::liveModeFollowsEvents()
{
    RedisServerGroup group;
    std::unique_ptr<MonitorHarness> live;
    QVERIFY2(startLive(group, 3, &live), qPrintable(group.errorString()));
    MonitorHarness& h = *live;

    QSignalSpy events(h.monitor.get(), &LockMonitor::keyspaceEvent);
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:live", "t1", "PX", "30000"});
    QTRY_COMPARE_WITH_TIMEOUT(h.view("lock:live").holding, 3, 2000);
    QCOMPARE(h.status("lock:live"), LockStatus::Held);
    QTRY_VERIFY(events.count() >= 3);

    // A token change on one master makes it contested, an extension moves the validity.
    group.at(2).command({"SET", "lock:live", "t2", "PX", "30000"});
    QTRY_COMPARE_WITH_TIMEOUT(h.status("lock:live"), LockStatus::Contested, 2000);
    group.at(2).command({"SET", "lock:live", "t1", "PX", "30000"});
    QTRY_COMPARE_WITH_TIMEOUT(h.status("lock:live"), LockStatus::Held, 2000);
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"PEXPIRE", "lock:live", "50000"});
    QTRY_VERIFY_WITH_TIMEOUT(h.view("lock:live").validityMs > 40000, 2000);

    // Expiry is an event too.
    // (A TTL long enough that a loaded machine still reads the key before it expires.)
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:short", "t", "PX", "1000"});
    QTRY_VERIFY_WITH_TIMEOUT(h.has("lock:short"), 3000);
    QTRY_VERIFY_WITH_TIMEOUT(!h.has("lock:short"), 5000);
}

// 20,000 TTL changes from one script: every one is accounted for (reported, or counted as held
// back), the reports stay within the throttle's budget, the lock shows the last TTL written, and
// what ends the key is reported even right after the flood.
void TestLockMonitor::aFloodOfTtlChangesIsReportedInPart()
{
    RedisServerGroup group;
    std::unique_ptr<MonitorHarness> live;
    QVERIFY2(startLive(group, 1, &live), qPrintable(group.errorString()));
    MonitorHarness& h = *live;
    group.at(0).command({"SET", "lock:flood", "tok", "PX", "60000"});
    QTRY_VERIFY_WITH_TIMEOUT(h.has("lock:flood"), 3000);

    qint64 reported = 0;
    qint64 skipped = 0;
    bool sawDel = false;
    QObject guard;
    QObject::connect(h.monitor.get(), &LockMonitor::keyspaceEvent, &guard,
                     [&](int, const QByteArray& key, const QByteArray& event) {
                         if (key == "lock:flood" && event == "expire")
                             ++reported;
                         sawDel = sawDel || (key == "lock:flood" && event == "del");
                     });
    QObject::connect(h.monitor.get(), &LockMonitor::keyspaceEventsSkipped, &guard,
                     [&](int, qint64 count) { skipped += count; });
    constexpr int changes = 20000;
    QElapsedTimer elapsed;
    elapsed.start();
    group.at(0).command({"EVAL",
                         "for i = 1, tonumber(ARGV[1]) do redis.call('PEXPIRE', KEYS[1], 600000 + i) end",
                         "1", "lock:flood", QByteArray::number(changes)});
    QTRY_COMPARE_WITH_TIMEOUT(reported + skipped, qint64(changes), 10000);
    const qint64 windows = elapsed.elapsed() / KeyspaceEventThrottle::windowMs + 2;
    QVERIFY2(reported <= windows * KeyspaceEventThrottle::perWindow,
             qPrintable(QStringLiteral("%1 reported in %2 ms").arg(reported).arg(elapsed.elapsed())));
    QVERIFY(skipped > 0);
    // Read again either way: the PTTL the last change set (less the time it took to read it).
    const auto pttl = [&h] { return h.view("lock:flood").observations.value(0).pttlMs(); };
    QTRY_VERIFY2_WITH_TIMEOUT(pttl() > 600000 + changes - 5000, qPrintable(QString::number(pttl())), 3000);

    group.at(0).command({"DEL", "lock:flood"});
    QTRY_VERIFY_WITH_TIMEOUT(sawDel, 3000);
    QTRY_VERIFY_WITH_TIMEOUT(!h.has("lock:flood"), 3000);
}

void TestLockMonitor::reconciliationCatchesWhatEventsMissed()
{
    RedisServerOptions o;
    o.notifications = true;
    RedisServerGroup group;
    QVERIFY2(group.start(1, o), qPrintable(group.errorString()));
    LockScopeConfig config;
    config.masters = group.connectionOptions(500);
    config.monitor.pollIntervalMs = 60000;
    config.monitor.reconcileIntervalMs = 400;
    MonitorRun run(config);
    QVERIFY(run.startAndScan(5000));
    LockMonitor& monitor = run.monitor();
    QTRY_COMPARE(monitor.scanner(0)->mode(), NotificationMode::Live);
    // Events stop behind the monitor's back (someone reconfigured the server): only the
    // reconciliation pass can notice the new lock.
    group.at(0).command({"CONFIG", "SET", "notify-keyspace-events", ""});
    QSignalSpy events(&monitor, &LockMonitor::keyspaceEvent);
    group.at(0).command({"SET", "lock:silent", "t", "PX", "60000"});
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().contains("lock:silent"), 3000);
    QCOMPARE(events.count(), 0);
}

void TestLockMonitor::pollingModeWithoutNotifications()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    MonitorHarness h(group, 150);
    QVERIFY(h.waitForInitialScan(5000));
    QCOMPARE(h.monitor->scanner(0)->mode(), NotificationMode::Polling);
    QVERIFY(h.monitor->scanner(0)->modeReason().contains(QStringLiteral("off")));
    group.at(0).command({"SET", "mutex:poll", "x", "PX", "10000"});
    QTRY_COMPARE_WITH_TIMEOUT(h.status("mutex:poll"), LockStatus::Held, 2000);
    QCOMPARE(h.view("mutex:poll").needed, 1);
}

void TestLockMonitor::noPermissionForConfigMeansPolling()
{
    RedisServerOptions o;
    o.aclUser = QStringLiteral("reader");
    o.aclPassword = distinctTestPassword(QStringLiteral("reader-pw"));
    o.aclRules = QStringLiteral("~* &* +@all -config");
    o.notifications = true;
    RedisServerGroup group;
    QVERIFY2(group.start(1, o), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:x", "t", "PX", "10000"});
    MonitorHarness h(group, 150);
    QVERIFY(h.waitForInitialScan(5000));
    QCOMPARE(h.monitor->scanner(0)->mode(), NotificationMode::Polling);
    QVERIFY2(h.monitor->scanner(0)->modeReason().contains(QStringLiteral("NOPERM")),
             qPrintable(h.monitor->scanner(0)->modeReason()));
    QCOMPARE(h.status("lock:x"), LockStatus::Held); // reading still works
}

void TestLockMonitor::enablingNotificationsIsExplicit()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    MonitorHarness h(group, 60000);
    QVERIFY(h.waitForInitialScan(5000));
    // Monitoring alone never changed the server's configuration.
    QCOMPARE(group.at(0).command({"CONFIG", "GET", "notify-keyspace-events"}).elements.at(1).string,
             QByteArray());
    bool done = false;
    RedisError result;
    h.monitor->enableNotifications(0, [&](const RedisError& e) {
        result = e;
        done = true;
    });
    QTRY_VERIFY(done);
    QVERIFY(!result.isError());
    QTRY_COMPARE(h.monitor->scanner(0)->mode(), NotificationMode::Live);
    group.at(0).command({"SET", "lock:after", "t", "PX", "10000"});
    QTRY_VERIFY_WITH_TIMEOUT(h.has("lock:after"), 2000);
}

void TestLockMonitor::masterDownMakesUndecidableLocksUnknown()
{
    RedisServerGroup group;
    QVERIFY2(group.start(5), qPrintable(group.errorString()));
    for (int i = 0; i < 5; ++i)
        group.at(i).command({"SET", "lock:three", "t", "PX", "60000"});
    for (int i = 0; i < 2; ++i)
        group.at(i).command({"SET", "lock:two", "u", "PX", "60000"});
    MonitorHarness h(group, 200, 300);
    QVERIFY(h.waitForInitialScan(5000));
    QCOMPARE(h.status("lock:three"), LockStatus::Held);
    QCOMPARE(h.status("lock:two"), LockStatus::Partial);

    group.at(3).pause(); // paused, not killed: only the timeout can tell
    group.at(4).kill();
    QTRY_COMPARE_WITH_TIMEOUT(h.masters->upCount(), 3, 3000);
    // 3 of 5 still hold lock:three: a quorum stands. lock:two could be held on the unreachable two.
    QTRY_COMPARE_WITH_TIMEOUT(h.status("lock:two"), LockStatus::Unknown, 2000);
    QTRY_VERIFY(h.view("lock:three").observations.at(3).error().isError());
    QCOMPARE(h.status("lock:three"), LockStatus::Held);
    group.at(2).kill();
    QTRY_COMPARE_WITH_TIMEOUT(h.status("lock:three"), LockStatus::Unknown, 3000);
    group.at(3).resume();
}

void TestLockMonitor::masterLostDuringInitialScanIsNotWaitedFor()
{
    // Master 1 is paused: its connection is accepted but never answers, so it stays connecting.
    // Master 0 finishes its pass. When master 1 then goes down (its handshake times out), nothing is
    // left to wait for: the initial scan must be announced and shown, though no pass will come to
    // announce it.
    RedisServerGroup group;
    QVERIFY2(group.start(2), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:first", "t", "PX", "60000"});
    group.at(1).pause();
    MonitorHarness h(group, 200, 1500);
    QSignalSpy initial(h.monitor.get(), &LockMonitor::initialScanFinished);
    QTRY_VERIFY_WITH_TIMEOUT(h.monitor->scanner(0)->completedPasses() > 0, 5000);
    if (h.masters->at(1)->state() == RedisConnection::State::Connecting) {
        QCOMPARE(initial.size(), 0);
        QVERIFY(!h.has("lock:first")); // held back until every master had its say
    }
    QTRY_COMPARE_WITH_TIMEOUT(initial.size(), 1, 10000);
    QVERIFY(!h.masters->at(1)->isUp());
    QVERIFY(h.has("lock:first")); // out with the announcement, not a timer later
    group.at(1).resume();
}

void TestLockMonitor::masterThatCannotBeScannedIsUnknownNotEmpty()
{
    // A server at maxclients lets the monitor's master connection in and refuses its scan
    // connection: the master is up, but what it holds cannot be read. Its part of each lock is
    // unknown (never "absent"), and the initial scan does not wait for a pass that cannot come.
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        QCOMPARE(group.at(i).command({"SET", "lock:crowd", "tok-c", "PX", "600000"}).string,
                 QByteArray("OK"));
    QCOMPARE(group.at(2).command({"CONFIG", "SET", "maxclients", "1"}).string, QByteArray("OK"));
    LockScopeConfig config;
    config.masters = group.connectionOptions(1000);
    config.masters[2].reconnectInitialMs = 60000; // the scan connection keeps failing, slowly
    MasterSet masters(config.masters);
    LockMonitor monitor(&masters, config);
    QSignalSpy initial(&monitor, &LockMonitor::initialScanFinished);
    masters.open();
    QTRY_VERIFY_WITH_TIMEOUT(masters.at(2)->isUp(), 10000);
    monitor.start();
    const auto describe = [&] {
        QString out;
        for (int i = 0; i < 3; ++i)
            out +=
                QStringLiteral("master %1: %2, passes %3, mode %4 (%5); ")
                    .arg(i)
                    .arg(RedisConnection::stateName(masters.at(i)->state()))
                    .arg(monitor.scanner(i)->completedPasses())
                    .arg(notificationModeName(monitor.scanner(i)->mode()), monitor.scanner(i)->modeReason());
        return out;
    };
    // The scanners follow their masters from the moment they exist: the announcement may already be in.
    QTRY_VERIFY2_WITH_TIMEOUT(initial.size() == 1, qPrintable(describe()), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().value("lock:crowd")->observations.value(2).error().isError(),
                             10000);
    const LockView view = monitor.locks().value("lock:crowd");
    QVERIFY2(view.observations.at(2).error().message.contains(QStringLiteral("cannot scan")),
             qPrintable(view.observations.at(2).error().message));
    QCOMPARE(view.holding, 2);
    QCOMPARE(view.status, LockStatus::Held); // 2 of 3 decide it whatever the third holds
    QVERIFY(masters.at(2)->isUp());

    // Room again (said over the monitor's own connection, the only one the server lets in): the scan
    // gets in once the master is reopened, and the third master's copy is read.
    bool roomMade = false;
    masters.at(2)->send({"CONFIG", "SET", "maxclients", "100"},
                        [&](const RedisResult& r) { roomMade = r.ok() && r.reply.string == "OK"; });
    QTRY_VERIFY_WITH_TIMEOUT(roomMade, 10000);
    masters.at(2)->close();
    masters.at(2)->open();
    QTRY_COMPARE_WITH_TIMEOUT(monitor.locks().value("lock:crowd")->holding, 3, 20000);
    QVERIFY(!monitor.locks().value("lock:crowd")->observations.at(2).error().isError());
}

void TestLockMonitor::restartMarksLocksAtRisk()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:risky", "t", "PX", "60000"});
    MonitorHarness h(group, 200);
    QVERIFY(h.waitForInitialScan(5000));
    QVERIFY(!h.view("lock:risky").atRisk);
    QVERIFY(group.at(1).restart()); // no persistence: it comes back empty with a new run_id
    QTRY_VERIFY_WITH_TIMEOUT(h.view("lock:risky").atRisk, 5000);
    QVERIFY(h.view("lock:risky").atRiskReason().contains(QStringLiteral("restarted")));
    QTRY_COMPARE_WITH_TIMEOUT(h.view("lock:risky").holding, 2, 3000);
    QCOMPARE(h.status("lock:risky"), LockStatus::Held); // 2 of 3 is still a quorum, but at risk
    // The two masters that still hold it stop answering: nothing can be decided, and nothing has
    // cleared the risk either (a Sentinel entry between primaries is the same case with N=1).
    group.at(0).pause();
    group.at(2).pause();
    QTRY_COMPARE_WITH_TIMEOUT(h.status("lock:risky"), LockStatus::Unknown, 5000);
    QVERIFY(h.view("lock:risky").atRisk);
    QVERIFY(h.view("lock:risky").atRiskReason().contains(QStringLiteral("restarted")));
    group.at(0).resume();
    group.at(2).resume();
    QTRY_COMPARE_WITH_TIMEOUT(h.status("lock:risky"), LockStatus::Held, 5000);
    QVERIFY(h.view("lock:risky").atRisk);
    // A new acquisition (a new token) is a new lock: the mark does not follow it.
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:risky", "fresh", "PX", "60000"});
    QTRY_COMPARE_WITH_TIMEOUT(h.view("lock:risky").token, QByteArray("fresh"), 3000);
    QVERIFY(!h.view("lock:risky").atRisk);
}

void TestLockMonitor::largeValuesAndHashesAreCapped()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:huge", QByteArray(20 * 1024 * 1024, 'v'), "PX", "60000"});
    for (int batch = 0; batch < 20; ++batch) {
        QByteArrayList hset{"HSET", "lock:wide"};
        for (int f = 0; f < 500; ++f)
            hset << QByteArray::number(batch * 500 + f) << "1";
        group.at(0).command(hset);
    }
    MonitorHarness h(group, 60000, 2000);
    QVERIFY(h.waitForInitialScan(10000));
    const KeyObservation huge = h.view("lock:huge").observations.at(0).key();
    QCOMPARE(huge.value.size(), qsizetype(h.config.monitor.maxValueBytes));
    QVERIFY(huge.truncated);
    QCOMPARE(huge.valueSize, qint64(20 * 1024 * 1024));
    const KeyObservation wide = h.view("lock:wide").observations.at(0).key();
    QCOMPARE(wide.type, QByteArray("hash"));
    QCOMPARE(wide.elementCount, qint64(10000));
    QVERIFY(wide.fields.size() <= h.config.monitor.maxFields);
    QVERIFY(wide.truncated);
}

void TestLockMonitor::keyThatChangesType()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:morph", "t", "PX", "60000"});
    MonitorHarness h(group, 100);
    QVERIFY(h.waitForInitialScan(5000));
    QCOMPARE(h.view("lock:morph").observations.at(0).type(), QByteArray("string"));
    group.at(0).command({"DEL", "lock:morph"});
    group.at(0).command({"ZADD", "lock:morph", "1", "member"});
    QTRY_COMPARE_WITH_TIMEOUT(h.view("lock:morph").observations.at(0).type(), QByteArray("zset"), 2000);
    QCOMPARE(h.view("lock:morph").observations.at(0).members().size(), 1);
    QVERIFY(h.view("lock:morph").observations.at(0).value().isEmpty());
}

void TestLockMonitor::progressReportsScannedVsDbsize()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    group.at(0).command({"DEBUG", "POPULATE", "50000", "filler"});
    for (int i = 0; i < 100; ++i)
        group.at(0).command({"SET", "lock:" + QByteArray::number(i), "t", "PX", "60000"});
    MonitorHarness h(group, 60000, 2000);
    QSignalSpy progress(h.monitor.get(), &LockMonitor::scanProgress);
    QVERIFY(h.waitForInitialScan(10000));
    QCOMPARE(h.monitor->locks().size(), 100);
    QVERIFY(progress.count() > 10);
    qint64 previous = -1;
    for (const QList<QVariant>& p : progress) {
        const qint64 scanned = p.at(1).toLongLong();
        QVERIFY(scanned >= previous); // never goes backwards within a pass
        previous = scanned;
        QVERIFY(p.at(2).toLongLong() == 50100 || p.at(2).toLongLong() == 0);
    }
    QCOMPARE(progress.last().at(1).toLongLong(), qint64(50100));
}

void TestLockMonitor::coalescesAFloodOnOneResource()
{
    RedisServerOptions o;
    o.notifications = true;
    RedisServerGroup group;
    QVERIFY2(group.start(1, o), qPrintable(group.errorString()));
    MonitorHarness h(group, 60000);
    h.monitor->setCoalesceMs(250);
    QVERIFY(h.waitForInitialScan(5000));
    QTRY_COMPARE(h.monitor->scanner(0)->mode(), NotificationMode::Live);
    int emissions = 0;
    connect(h.monitor.get(), &LockMonitor::locksChanged, this, [&](const LockBatch& b) {
        for (const LockView& v : b.added + b.changed)
            emissions += v.resource == "lock:flood" ? 1 : 0;
    });
    // 200 hand-overs in about a second: the view follows a few times a second, not 200 times.
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < 200; ++i) {
        group.at(0).command({"SET", "lock:flood", "holder-" + QByteArray::number(i), "PX", "60000"});
        QTest::qWait(5);
    }
    const double seconds = double(clock.elapsed()) / 1000.0;
    QTRY_COMPARE_WITH_TIMEOUT(h.view("lock:flood").token, QByteArray("holder-199"), 2000);
    QVERIFY2(emissions <= 3 + int(seconds * 4) + 2,
             qPrintable(QStringLiteral("%1 emissions in %2 s").arg(emissions).arg(seconds)));
    QVERIFY(emissions >= 3);
}

void TestLockMonitor::extensionOnEveryMasterReachesTheViewPromptly()
{
    RedisServerGroup group;
    std::unique_ptr<MonitorHarness> live;
    QVERIFY2(startLive(group, 3, &live), qPrintable(group.errorString()));
    MonitorHarness& h = *live;
    h.monitor->setCoalesceMs(250); // the window's default: each master's news spends the budget
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:ext", "tok", "PX", "60000"});
    QTRY_COMPARE_WITH_TIMEOUT(h.view("lock:ext").holding, 3, 2000);
    const auto shownPttl = [&h](int master) {
        const LockView v = h.view("lock:ext");
        if (master >= v.observations.size())
            return qint64(-1);
        const MasterObservation& m = v.observations.at(master);
        return m.pttlMs() - (monotonicMs() - m.readAtMs());
    };
    // Another client extends the lock one master at a time: each master's new expiry is news of its
    // own, even while the quorum's validity does not move yet (two of three still hold the old one).
    for (int round = 1; round <= 5; ++round) {
        const qint64 ttl = 60000 + round * 20000;
        for (int i = 0; i < 3; ++i) {
            QElapsedTimer clock;
            clock.start();
            group.at(i).command({"PEXPIRE", "lock:ext", QByteArray::number(ttl)});
            QTRY_VERIFY_WITH_TIMEOUT(shownPttl(i) > ttl - 10000 || clock.elapsed() > 1000, 2000);
            QVERIFY2(shownPttl(i) > ttl - 10000,
                     qPrintable(QStringLiteral("round %1, master %2: shown %3 ms after %4 ms, server %5 ms")
                                    .arg(round)
                                    .arg(i)
                                    .arg(shownPttl(i))
                                    .arg(clock.elapsed())
                                    .arg(ttl)));
        }
        QTRY_VERIFY_WITH_TIMEOUT(h.view("lock:ext").validityMs > ttl - 10000, 1000);
    }
}

void TestLockMonitor::forgetsEveryResourceOnceGone()
{
    // A long-running watch or serve sees millions of locks come and go: nothing of a lock may stay
    // behind once it is gone from every master (its read, its view, its risk mark, its legacy
    // timestamp watch, its age in the metrics).
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    MonitorHarness h(group, 150);
    LockActivity activity(h.monitor.get());
    QVERIFY(h.waitForInitialScan(5000));
    const QByteArray legacy = QByteArray::number(QDateTime::currentMSecsSinceEpoch() + 600000);
    QByteArrayList keys;
    QList<int> copies; // how many masters hold each key
    for (int i = 0; i < 60; ++i) {
        const QByteArray key = "lock:gone" + QByteArray::number(i);
        keys << key;
        // Held on all, partial on one, contested, and legacy timestamps without a TTL.
        const int on = i % 3 == 1 ? 1 : 3;
        copies << on;
        for (int m = 0; m < on; ++m) {
            const QByteArray value = i % 5 == 0   ? legacy
                                     : i % 7 == 0 ? QByteArray("token-m") + QByteArray::number(m)
                                                  : QByteArray("token") + QByteArray::number(i);
            if (i % 5 == 0)
                group.at(m).command({"SET", key, value});
            else
                group.at(m).command({"SET", key, value, "PX", "60000"});
        }
    }
    // A restart marks the copies the monitor had read: every copy, then, not only every resource
    // shown (master 0 holds all 60, and its pass alone shows them all).
    const auto everyCopyRead = [&] {
        for (int k = 0; k < keys.size(); ++k) {
            const LockView view = h.view(keys.at(k));
            for (int m = 0; m < copies.at(k); ++m)
                if (view.observations.size() <= m || !view.observations.at(m).present())
                    return false;
        }
        return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(everyCopyRead(), int(upperBoundMs(5000)));
    // A restart marks what the master held at risk: those marks must go with the locks too.
    // Said when the mark is missing: CI's sanitizer pass once missed it, on a machine so loaded that
    // this test took 139 s (16 s as a rule); the waits here are "did not hang" bounds, scaled.
    QSignalSpy restarts(h.masters.get(), &MasterSet::masterRestarted);
    QVERIFY2(group.at(2).restart(), qPrintable(group.at(2).errorString()));
    const auto describe = [&](const QByteArray& key) {
        const LockView view = h.view(key);
        QString seen;
        for (const MasterObservation& o : view.observations)
            seen += o.present()           ? QStringLiteral(" present")
                    : o.error().isError() ? QStringLiteral(" error")
                                          : QStringLiteral(" absent");
        return QStringLiteral("%1: %2, holding %3,%4; restarts heard %5")
            .arg(QString::fromUtf8(key), lockStatusName(view.status))
            .arg(view.holding)
            .arg(seen)
            .arg(restarts.size());
    };
    QTRY_VERIFY2_WITH_TIMEOUT(h.view("lock:gone0").atRisk, qPrintable(describe("lock:gone0")),
                              int(upperBoundMs(5000)));
    QVERIFY(h.monitor->trackedResources() >= keys.size());
    QVERIFY(activity.trackedLocks() >= keys.size());
    for (int m = 0; m < group.size(); ++m)
        for (const QByteArray& key : std::as_const(keys))
            group.at(m).command({"DEL", key});
    QTRY_COMPARE_WITH_TIMEOUT(h.monitor->locks().size(), 0, int(upperBoundMs(5000)));
    QTRY_COMPARE_WITH_TIMEOUT(h.monitor->trackedResources(), 0, int(upperBoundMs(2000)));
    QCOMPARE(activity.trackedLocks(), 0);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockMonitor)

} // namespace tst_lockmonitor

#include "tst_lockmonitor.moc"
