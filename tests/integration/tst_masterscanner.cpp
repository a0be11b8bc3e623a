// SPDX-License-Identifier: Apache-2.0
#include "base/threadpriority.h"
#include "connection/rediscommandbatch.h"
#include "discovery/masterscanner.h"
#include "discovery/observationsink.h"
#include "discovery/scanthread.h"
#include "discovery/scanworker.h"
#include "monitor/lockmonitor.h"
#include "support/busyscript.h"
#include "support/overlappingpatternkeys.h"
#include "support/rediscliprocess.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QDir>
#include <QPointer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTimer>

#ifdef Q_OS_LINUX
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace tst_masterscanner {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// Records what reaches the sink, and on which thread.
class RecordingSink final : public ObservationSink
{
public:
    void keyObserved(int, const HashedKey& key, KeyObservation&& observation) override
    {
        threads.insert(QThread::currentThread());
        present.insert(key, observation.value);
        ++observations;
    }
    void keyRemoved(int, const HashedKey& key) override
    {
        threads.insert(QThread::currentThread());
        present.remove(key);
    }

    QSet<QThread*> threads;
    QHash<QByteArray, QByteArray> present;
    qint64 observations = 0; // every read taken in, the same key again included
};

ConnectionOptions quickOptions(const RedisServer& server, int timeoutMs = 500)
{
    ConnectionOptions o = server.connectionOptions(timeoutMs);
    o.reconnectInitialMs = 50;
    o.reconnectMaxMs = 200;
    o.healthIntervalMs = 100;
    return o;
}

MonitorSettings quickSettings()
{
    MonitorSettings s;
    s.patterns = {"lock:*"};
    s.pollIntervalMs = 200;
    s.reconcileIntervalMs = 2000;
    return s;
}

// A master connection and its scanner (master 0) feeding a recording sink, both started: what the
// tests here scan with.
struct ScanRig
{
    explicit ScanRig(ConnectionOptions options, const MonitorSettings& settings = quickSettings())
        : master(std::move(options)), scanner(0, &master, settings, &sink),
          passes(&scanner, &MasterScanner::passFinished)
    {
        master.open();
        scanner.start();
    }

    RedisConnection master;
    RecordingSink sink;
    MasterScanner scanner;
    QSignalSpy passes;
};

// Runs `f` on the worker's thread and waits for it.
template <typename F> void onWorkerThread(MasterScanner& scanner, F&& f)
{
    QMetaObject::invokeMethod(scanner.worker(), std::forward<F>(f), Qt::BlockingQueuedConnection);
}

// The OS thread id of the worker's thread.
long workerTid(MasterScanner& scanner)
{
    long tid = 0;
#ifdef Q_OS_LINUX
    onWorkerThread(scanner, [&tid] { tid = long(syscall(SYS_gettid)); });
#endif
    return tid;
}

// Client names and last commands of the server's connections ("name=... cmd=..." per line).
QByteArray clientList(const RedisServer& server)
{
    return server.command({"CLIENT", "LIST"}).string;
}

} // namespace

class TestMasterScanner : public QObject
{
    Q_OBJECT

private slots:
    void scanningRunsOffTheMonitorThread();
    void workerThreadYieldsLikeItsCreator();
    void threadIsGoneWithTheMonitor();
    void followsARetargetedMasterConnection();
    void pausedServerEndsThePassOnTheScanConnection();
    void masterDownAbortsAndComesBack();
    void aBusyMonitorHoldsBackTheNextPass();
    void aBusyMonitorHoldsBackThePass();
    void aBusyMonitorHoldsBackEventReads();
    void pacedPassBacksOffOnASlowServerAndMaxDoesNot();
    void overlappingPatternsAreOneWalk();
};

void TestMasterScanner::scanningRunsOffTheMonitorThread()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    for (int i = 0; i < 300; ++i)
        group.at(0).command(
            {"SET", "lock:" + QByteArray::number(i), "tok" + QByteArray::number(i), "PX", "60000"});
    group.at(0).command({"SET", "other", "x"});

    ScanRig rig(quickOptions(group.at(0)));
    QVERIFY(rig.passes.wait(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(rig.scanner.completedPasses(), 1);
    QCOMPARE(rig.scanner.knownKeys(), qint64(300));
    QCOMPARE(rig.sink.present.size(), 300);
    QCOMPARE(rig.sink.present.value("lock:7"), QByteArray("tok7"));

    // The sink is only ever called on the scanner's (the monitor's) thread ...
    QCOMPARE(rig.sink.threads, QSet<QThread*>{QThread::currentThread()});
    // ... while the connection that SCANs, reads and parses the replies lives on the worker's.
    QThread* worker = rig.scanner.workerThread();
    QVERIFY(worker != QThread::currentThread());
    QVERIFY(worker->isRunning());
    bool connectionOnWorker = false;
    bool connectionUp = false;
    onWorkerThread(rig.scanner, [&] {
        const RedisConnection* c = rig.scanner.worker()->scanConnection();
        connectionOnWorker = c && c->thread() == QThread::currentThread();
        connectionUp = c && c->isUp();
    });
    QVERIFY(connectionOnWorker);
    QVERIFY(connectionUp);
    // A connection of its own on the server, which ran the SCAN and the reads (not the master's).
    const QByteArray clients = clientList(group.at(0));
    QVERIFY2(clients.contains("name=lockscope-scan"), clients.constData());
    QVERIFY2(QRegularExpression(QStringLiteral("name=lockscope-scan .*cmd=(getrange|pttl|scan)"))
                 .match(QString::fromUtf8(clients))
                 .hasMatch(),
             clients.constData());

    // Changes still arrive: a deleted key leaves at the next pass, a new one comes in.
    group.at(0).command({"DEL", "lock:7"});
    group.at(0).command({"SET", "lock:new", "fresh", "PX", "60000"});
    QTRY_VERIFY_WITH_TIMEOUT(!rig.sink.present.contains("lock:7") && rig.sink.present.contains("lock:new"),
                             10000);
    QTRY_COMPARE_WITH_TIMEOUT(rig.scanner.knownKeys(), qint64(300), 10000);
}

void TestMasterScanner::workerThreadYieldsLikeItsCreator()
{
    // Masters up to the cap get a thread each; beyond it they share the least used ones.
    std::vector<std::unique_ptr<RedisConnection>> owned;
    std::vector<std::unique_ptr<MasterScanner>> scanners;
    RecordingSink sink;
    QSet<QThread*> threads;
    for (int i = 0; i < ScanThread::maxThreads; ++i) {
        owned.push_back(std::make_unique<RedisConnection>(ConnectionOptions()));
        scanners.push_back(std::make_unique<MasterScanner>(i, owned.back().get(), quickSettings(), &sink));
        threads.insert(scanners.back()->workerThread());
    }
    QCOMPARE(threads.size(), ScanThread::maxThreads);

#ifdef Q_OS_LINUX
    // A thread that yields (like the GUI app's core thread) creates one more: the shared thread it
    // gets was started by this (non-yielding) thread, and must now yield at least as much.
    QThread creator;
    creator.start();
    QObject anchor;
    anchor.moveToThread(&creator);
    int creatorNice = 0;
    int workerNice = -100;
    QThread* shared = nullptr;
    QMetaObject::invokeMethod(
        &anchor,
        [&] {
            ThreadPriority::lowerTo(ThreadPriority::currentNice() + 3);
            creatorNice = ThreadPriority::currentNice();
            RedisConnection master(ConnectionOptions{});
            MasterScanner scanner(99, &master, quickSettings(), &sink);
            shared = scanner.workerThread();
            onWorkerThread(scanner, [&] { workerNice = ThreadPriority::currentNice(); });
        },
        Qt::BlockingQueuedConnection);
    creator.quit();
    creator.wait();
    QVERIFY(threads.contains(shared));
    QVERIFY(creatorNice > 0);
    QVERIFY2(workerNice >= creatorNice,
             qPrintable(QStringLiteral("%1 < %2").arg(workerNice).arg(creatorNice)));
#endif
}

void TestMasterScanner::threadIsGoneWithTheMonitor()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"SET", "lock:a", "tok", "PX", "60000"});
    LockScopeConfig config;
    for (int i = 0; i < 3; ++i)
        config.masters << quickOptions(group.at(i));
    config.monitor = quickSettings();
    auto masters = std::make_unique<MasterSet>(config.masters);
    auto monitor = std::make_unique<LockMonitor>(masters.get(), config);
    QSignalSpy initial(monitor.get(), &LockMonitor::initialScanFinished);
    masters->open();
    monitor->start();
    QVERIFY(initial.wait(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(monitor->locks().value("lock:a")->holding, 3);

    // One thread per master (Redlock sizes are far below the cap).
    QList<QPointer<QThread>> threads;
    QList<long> tids;
    for (int i = 0; i < 3; ++i) {
        auto* scanner = qobject_cast<MasterScanner*>(monitor->scanner(i));
        QVERIFY(scanner);
        threads << scanner->workerThread();
        tids << workerTid(*scanner);
    }
    QCOMPARE(QSet<QThread*>(threads.cbegin(), threads.cend()).size(), 3);
    for (long tid : std::as_const(tids))
        QVERIFY(tid != 0);

    // Mid-pass on purpose: destruction must not wait for, or crash on, work in flight.
    monitor->refresh();
    monitor.reset();
    for (const QPointer<QThread>& t : std::as_const(threads))
        QVERIFY(t.isNull());
#ifdef Q_OS_LINUX
    // Joined; the kernel lets go of the task itself a moment after the thread's last instruction.
    for (long tid : std::as_const(tids))
        QTRY_VERIFY_WITH_TIMEOUT(!QDir(QStringLiteral("/proc/self/task/%1").arg(tid)).exists(), 2000);
#endif
    // Its connections are closed, not left to the server's timeout.
    QTRY_VERIFY_WITH_TIMEOUT(!clientList(group.at(0)).contains("name=lockscope-scan"), 5000);
    masters.reset();
}

void TestMasterScanner::followsARetargetedMasterConnection()
{
    RedisServerGroup group;
    QVERIFY2(group.start(2), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:old", "on-first", "PX", "60000"});
    group.at(1).command({"SET", "lock:new", "on-second", "PX", "60000"});

    ScanRig rig(quickOptions(group.at(0)));
    QVERIFY(rig.passes.wait(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(rig.sink.present.keys(), QList<QByteArray>{"lock:old"});

    // What a Sentinel failover does to the master connection: new options, then Down -> Up.
    rig.master.retarget(quickOptions(group.at(1)),
                        RedisError(ErrorKind::ConnectionLost, rig.master.name(), QStringLiteral("failover")));
    QCOMPARE(rig.scanner.mode(), NotificationMode::Unknown);
    rig.master.open();
    QTRY_VERIFY_WITH_TIMEOUT(rig.sink.present.contains("lock:new") && !rig.sink.present.contains("lock:old"),
                             10000);
    QCOMPARE(rig.sink.present.value("lock:new"), QByteArray("on-second"));
    QTRY_VERIFY_WITH_TIMEOUT(clientList(group.at(1)).contains("name=lockscope-scan"), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!clientList(group.at(0)).contains("name=lockscope-scan"), 5000);
}

void TestMasterScanner::pausedServerEndsThePassOnTheScanConnection()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:a", "tok", "PX", "60000"});
    // The master connection sends nothing by itself here: only the scan connection can notice.
    ConnectionOptions options = quickOptions(group.at(0), 400);
    options.healthIntervalMs = 0;
    MonitorSettings settings = quickSettings();
    settings.pollIntervalMs = 3600000; // passes only when asked
    ScanRig rig(options, settings);
    QVERIFY(rig.passes.wait(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(rig.scanner.mode(), NotificationMode::Polling);

    group.at(0).pause();
    rig.scanner.requestPass();
    // Not left hanging: the scan connection's command timeout ends the pass and says why.
    QTRY_COMPARE_WITH_TIMEOUT(rig.scanner.mode(), NotificationMode::Unknown, 5000);
    QVERIFY2(rig.scanner.modeReason().contains(QStringLiteral("400")) ||
                 rig.scanner.modeReason().contains(QStringLiteral("timed out"), Qt::CaseInsensitive),
             qPrintable(rig.scanner.modeReason()));
    QVERIFY(!rig.scanner.isScanning());
    QCOMPARE(rig.scanner.completedPasses(), 1);
    QVERIFY(rig.master.isUp()); // it never noticed

    // Back: the scan connection reconnects by itself and the next pass completes.
    group.at(0).resume();
    QTRY_COMPARE_WITH_TIMEOUT(rig.scanner.completedPasses(), 2, 10000);
    QCOMPARE(rig.scanner.mode(), NotificationMode::Polling);
    QVERIFY(rig.sink.present.contains("lock:a"));
}

void TestMasterScanner::masterDownAbortsAndComesBack()
{
    RedisServerGroup group;
    RedisServerOptions withEvents;
    withEvents.notifications = true;
    QVERIFY2(group.start(1, withEvents), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:a", "tok", "PX", "60000"});
    ScanRig rig(quickOptions(group.at(0)));
    QTRY_COMPARE_WITH_TIMEOUT(rig.scanner.mode(), NotificationMode::Live, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(rig.scanner.completedPasses() >= 1, 10000);

    // Down on the master connection: the mirror says so at once, with the master's reason.
    group.at(0).pause();
    QTRY_VERIFY_WITH_TIMEOUT(!rig.master.isUp(), 5000);
    QCOMPARE(rig.scanner.mode(), NotificationMode::Unknown);
    QCOMPARE(rig.scanner.modeReason(), rig.master.lastError().message);
    QVERIFY(!rig.scanner.isScanning());

    group.at(0).resume();
    const int before = rig.scanner.completedPasses();
    QTRY_COMPARE_WITH_TIMEOUT(rig.scanner.mode(), NotificationMode::Live, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(rig.scanner.completedPasses() > before, 10000);
    // Live again: an event reaches the sink through the worker's subscriber.
    QSignalSpy events(&rig.scanner, &MasterScanner::keyspaceEvent);
    group.at(0).command({"SET", "lock:b", "tok-b", "PX", "60000"});
    QTRY_COMPARE_WITH_TIMEOUT(rig.sink.present.value("lock:b"), QByteArray("tok-b"), 5000);
    QVERIFY(!events.isEmpty());
    QCOMPARE(events.first().at(1).toByteArray(), QByteArray("lock:b"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestMasterScanner)
void TestMasterScanner::aBusyMonitorHoldsBackTheNextPass()
{
    // Polling mode, nothing changing: every pass observes every key. A monitor thread busier than
    // the scans must not have pass after pass queued to it (memory grew without bound: 366 to
    // 1123 MiB in a minute with 100k locks on 5 masters); the next pass waits for the last one's
    // delivery.
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    for (int i = 0; i < 300; ++i)
        group.at(0).command(
            {"SET", "lock:" + QByteArray::number(i), "tok" + QByteArray::number(i), "PX", "600000"});
    RedisConnection master(quickOptions(group.at(0)));
    RecordingSink sink;
    MonitorSettings settings = quickSettings();
    settings.pollIntervalMs = 5;
    MasterScanner scanner(0, &master, settings, &sink);
    QSignalSpy passes(&scanner, &MasterScanner::passFinished);
    master.open();
    scanner.start();
    QVERIFY(passes.wait(int(lockscope::test::upperBoundMs(10000))));

    // The monitor's thread busy for a second and a half (deliberately blocked, not a wait): the
    // worker's passes of 300 keys take a few milliseconds each.
    QThread::msleep(1500);
    passes.clear();
    QCoreApplication::sendPostedEvents(&scanner); // what was queued meanwhile, at once
    QVERIFY2(passes.size() <= 1, qPrintable(QStringLiteral("%1 passes queued").arg(passes.size())));
    // And the passes go on once it is taken in.
    QVERIFY(passes.wait(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(sink.present.size(), 300);
}

void TestMasterScanner::aBusyMonitorHoldsBackThePass()
{
    // Within one pass too: a worker reading faster than the monitor takes in (five masters, one
    // monitor thread) queued the whole pass's reads to it, a few hundred bytes a key. Past a few
    // thousand keys on their way the pass waits for the monitor.
    constexpr int keys = 60000;
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    group.at(0).command({"EVAL",
                         "for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'lock:' .. i, 'tok' .. i, 'PX', "
                         "600000) end",
                         "0", QByteArray::number(keys)});
    RedisConnection master(quickOptions(group.at(0), 5000));
    RecordingSink sink;
    MasterScanner scanner(0, &master, quickSettings(), &sink);
    QSignalSpy passes(&scanner, &MasterScanner::passFinished);
    QSignalSpy progress(&scanner, &MasterScanner::scanProgress);
    master.open();
    scanner.start();
    QVERIFY(progress.wait(int(lockscope::test::upperBoundMs(10000)))); // the first page is in
    // The monitor's thread busy (deliberately blocked, not a wait) for as long as the worker needs
    // to read every key.
    QThread::msleep(4000);
    QCoreApplication::sendPostedEvents(&scanner); // what was queued meanwhile, at once
    QVERIFY2(sink.present.size() <= 24000,
             qPrintable(QStringLiteral("%1 keys queued to a busy monitor").arg(sink.present.size())));
    // And the pass goes on once they are taken in.
    QTRY_VERIFY_WITH_TIMEOUT(passes.size() >= 1, 30000);
    QCOMPARE(sink.present.size(), keys);
}

// The same for the reads keyspace events call for: a writer changing more keys a second than the
// monitor takes in queued every one of them as a read and then as observations (hundreds of MB at a
// million locks). Past a few thousand keys on their way, the changed keys wait in the worker, each
// once, and are read as the monitor catches up.
void TestMasterScanner::aBusyMonitorHoldsBackEventReads()
{
    constexpr int keys = 60000;
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    group.at(0).command({"CONFIG", "SET", "notify-keyspace-events", "KA"});
    group.at(0).command({"EVAL",
                         "for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'lock:' .. i, 'tok' .. i, 'PX', "
                         "600000) end",
                         "0", QByteArray::number(keys)});
    MonitorSettings settings = quickSettings();
    settings.reconcileIntervalMs = 600000; // no pass but the first: every read after it is an event's
    ScanRig rig(quickOptions(group.at(0), 5000), settings);
    QTRY_VERIFY_WITH_TIMEOUT(rig.passes.size() >= 1 && rig.sink.present.size() == keys, 30000);
    QTRY_COMPARE_WITH_TIMEOUT(rig.scanner.mode(), NotificationMode::Live, 5000);
    const qint64 before = rig.sink.observations;

    // Every key changes once; the monitor's thread is busy (blocked, not waiting) meanwhile.
    group.at(0).command({"EVAL",
                         "for i = 1, tonumber(ARGV[1]) do redis.call('PEXPIRE', 'lock:' .. i, 900000) end",
                         "0", QByteArray::number(keys)});
    QThread::msleep(4000);
    QCoreApplication::sendPostedEvents(&rig.scanner); // what was queued meanwhile, at once
    const qint64 queued = rig.sink.observations - before;
    QVERIFY2(queued <= 25000, qPrintable(QStringLiteral("%1 reads queued to a busy monitor").arg(queued)));
    // The rest are read once the monitor takes in what came.
    QTRY_VERIFY_WITH_TIMEOUT(rig.sink.observations - before >= keys, 30000);
    QCOMPARE(rig.sink.present.size(), keys);
}

namespace {

// SCANs the server ran since `CONFIG RESETSTAT` (only the scan connection sends them).
qint64 scanCalls(const RedisServer& server)
{
    const QByteArray info = server.command({"INFO", "commandstats"}).string;
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("cmdstat_scan:calls=(\\d+)")).match(QString::fromLatin1(info));
    return m.hasMatch() ? m.captured(1).toLongLong() : 0;
}

// The worker's pacer, copied on its thread.
ScanPacer pacerOf(MasterScanner& scanner)
{
    ScanPacer pacer(ScanRate::automatic());
    onWorkerThread(scanner, [&] { pacer = scanner.worker()->pacer(); });
    return pacer;
}

} // namespace

void TestMasterScanner::pacedPassBacksOffOnASlowServerAndMaxDoesNot()
{
    // Issue #19: the observer must not hurt the observed.
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    constexpr int keys = 5000;
    server.command(
        {"EVAL",
         "for i=1," + QByteArray::number(keys) + " do redis.call('SET','lock:'..i,'tok','PX',600000) end",
         "0"});
    MonitorSettings settings = quickSettings(); // scanCount 1000, the default: auto
    settings.pollIntervalMs = 3600000;          // passes only when asked
    ScanRig rig(quickOptions(server, 2000), settings);
    QVERIFY(rig.passes.wait(int(lockscope::test::upperBoundMs(30000))));
    rig.scanner.requestPass();
    QVERIFY(rig.passes.wait(int(lockscope::test::upperBoundMs(30000))));
    // (How fast it went depends on how busy this machine is: a loaded one reads as a busy server.)
    const ScanPacer calm = pacerOf(rig.scanner);
    QVERIFY(calm.paced());
    QVERIFY2(calm.idleUs() > 0, "the pass measured the server's latency");
    QVERIFY2(!calm.shared(), "its own commands are not others'");
    // A scanning user without INFO, on the same server: judged by the PINGs alone (below). Its first
    // pass learns the idle latency.
    server.command({"ACL", "SETUSER", "scanner", "on", ">scanner-pw", "~*", "&*", "+@all", "-info"});
    ConnectionOptions restricted = quickOptions(server, 2000);
    restricted.url.setUser(QStringLiteral("scanner"));
    restricted.url.setPassword(QStringLiteral("scanner-pw"));
    ScanRig pings(restricted, settings);
    QVERIFY(pings.passes.wait(int(lockscope::test::upperBoundMs(30000))));
    pings.scanner.requestPass();
    QVERIFY(pings.passes.wait(int(lockscope::test::upperBoundMs(30000))));

    // A real neighbour that slows the server: 4 ms scripts back to back (a sanitizer run's idle round
    // trip of ~0.7 ms left 2 ms ones only just over the busy threshold), whatever the load: a client
    // waiting for each reply (redis-cli -r) left the server idle until it had the CPU, 40-300 ms on a
    // loaded two-core machine. So they wait in its socket, each past the 16 KB it reads a turn.
    const QString busy = busyScript(server, 4000);
    QVERIFY(!busy.isEmpty());
    server.command({"CONFIG", "RESETSTAT"}); // the probe's EVAL is not the neighbour's
    auto neighbour = startCli(server, {QStringLiteral("--pipe")});
    QByteArray eval;
    appendRespCommand(eval, QByteArrayList{"EVAL", busy.toUtf8(), "0", QByteArray(16 * 1024, 'x')});
    QTimer feed;
    QObject::connect(&feed, &QTimer::timeout, [&] {
        while (neighbour->state() == QProcess::Running && neighbour->bytesToWrite() < 128 * eval.size())
            neighbour->write(eval);
    });
    feed.start(10);
    QTRY_VERIFY_WITH_TIMEOUT(server.command({"INFO", "commandstats"}).string.contains("cmdstat_eval:calls="),
                             10000);
    server.command({"CONFIG", "RESETSTAT"});
    rig.scanner.requestPass();
    QVERIFY(rig.passes.wait(int(lockscope::test::upperBoundMs(120000))));
    const qint64 slowScans = scanCalls(server);
    const ScanPacer slow = pacerOf(rig.scanner);
    // The neighbour's commands (its scripts and what they call) made the server shared: the rate at
    // its floor (it is cut on every shared page, and climbs on every calm one), pages and read
    // batches of sharedCount keys at most: one short turn of the server each.
    const ScanPacer::Bounds bounds;
    QVERIFY(slow.shared());
    QVERIFY2(slow.keysPerSecond() == bounds.floorKeysPerSecond,
             qPrintable(QString::number(slow.keysPerSecond())));
    QCOMPARE(slow.readBatch(), bounds.sharedCount);
    QVERIFY2(slowScans >= keys / (2 * bounds.sharedCount), qPrintable(QString::number(slowScans)));
    QCOMPARE(rig.sink.present.size(), keys);

    // The user without INFO: the server judged by the PINGs alone, which the neighbour slows. Backed
    // off: the rate at its floor, smaller pages (more of them) and the smallest read batches. (The
    // smoothed latency itself is not compared: on a loaded machine the idle estimate is high too, and
    // the ratio at the pass's last page is noise around the busy threshold.)
    server.command({"CONFIG", "RESETSTAT"});
    pings.scanner.requestPass();
    QVERIFY(pings.passes.wait(int(lockscope::test::upperBoundMs(120000))));
    const qint64 pingScans = scanCalls(server);
    const ScanPacer judged = pacerOf(pings.scanner);
    QVERIFY(!judged.shared());
    QVERIFY2(judged.keysPerSecond() == bounds.floorKeysPerSecond,
             qPrintable(QStringLiteral("rate %1, latency %2x idle")
                            .arg(judged.keysPerSecond())
                            .arg(judged.latencyRatio())));
    QVERIFY2(pingScans >= keys / 500, qPrintable(QString::number(pingScans)));
    QCOMPARE(judged.readBatch(), bounds.minReadBatch);
    QCOMPARE(pings.sink.present.size(), keys);

    // `max`: the first pass runs at full speed on the same slow server (pages of scanCount).
    MonitorSettings fast = settings;
    fast.scanRate = ScanRate::max();
    server.command({"CONFIG", "RESETSTAT"});
    ScanRig full(quickOptions(server, 2000), fast);
    QVERIFY(full.passes.wait(int(lockscope::test::upperBoundMs(120000))));
    QVERIFY(!pacerOf(full.scanner).paced());
    const qint64 maxScans = scanCalls(server);
    QVERIFY2(maxScans <= keys / 1000 + 3, qPrintable(QString::number(maxScans)));
    QCOMPARE(full.sink.present.size(), keys);
    stopCli(neighbour);
}

void TestMasterScanner::overlappingPatternsAreOneWalk()
{
    // The default patterns overlap ("*lock*" and a "lock:*" of one's own): one SCAN run a pass
    // covers them all, each key once (a run per pattern walked the keyspace once per pattern).
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    RedisServer& server = group.at(0);
    QVERIFY(writeOverlappingPatternKeys(server));
    server.command({"CONFIG", "RESETSTAT"});
    MonitorSettings settings = quickSettings();
    settings.patterns = {"lock:*", "*lock*", "mutex:*"};
    settings.scanRate = ScanRate::max(); // pages of scanCount: their number is the measure
    settings.pollIntervalMs = 3600000;
    ScanRig rig(quickOptions(server, 2000), settings);
    QVERIFY(rig.passes.wait(int(lockscope::test::upperBoundMs(30000))));
    QCOMPARE(rig.sink.present.size(), 3000);
    QCOMPARE(rig.scanner.knownKeys(), qint64(3000));
    QVERIFY(!rig.sink.present.contains("other:1"));
    QVERIFY(rig.sink.present.contains("jobs.lock.7"));
    // 5,000 keys at COUNT 1000: about five pages, not fifteen.
    const qint64 scans = scanCalls(server);
    QVERIFY2(scans <= 5000 / 1000 + 3, qPrintable(QString::number(scans)));
}

} // namespace tst_masterscanner

#include "tst_masterscanner.moc"
