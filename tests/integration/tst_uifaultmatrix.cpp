// SPDX-License-Identifier: Apache-2.0
// Faults on one master of three, each seen by every client of the core: the monitor in-process,
// the window (offscreen), `lockctl list --json`, and a write (`lockctl acquire` then `release`). Data-driven:
// one row per fault. In every row the clients stay responsive (bounded time), say which master failed and
// why, keep serving what the two healthy masters hold, write nothing that was not asked for, and recover when
// the master comes back (where the fault is one that can end).
#include "locks/locktablemodel.h"
#include "masters/mastertablemodel.h"
#include "monitor/lockmonitor.h"
#include "support/faultcluster.h"
#include "support/lockctlrun.h"
#include "support/monitorrun.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/serverflavour.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "window/mainwindow.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>

namespace tst_uifaultmatrix {

using namespace lockscope;
using namespace lockscope::test;

class TestFaultMatrix : public QObject
{
    Q_OBJECT

private slots:
    void monitor_data();
    void monitor();
    void window_data() { monitor_data(); }
    void window();
    void lockctlList_data() { monitor_data(); }
    void lockctlList();
    void write_data() { monitor_data(); }
    void write();
    void unresolvableHostInANetworkNamespace();
};

void TestFaultMatrix::monitor_data()
{
    QTest::addColumn<Fault>("fault");
    QTest::newRow("killed") << Fault::Killed;
    QTest::newRow("paused (SIGSTOP)") << Fault::Paused;
    QTest::newRow("restarted") << Fault::Restarted;
    QTest::newRow("slowed (DEBUG SLEEP)") << Fault::Slowed;
    QTest::newRow("refusing at start") << Fault::RefusedAtStart;
    QTest::newRow("TLS port, plain TCP") << Fault::TlsPortWithPlainTcp;
    QTest::newRow("closes mid-reply") << Fault::ClosesMidReply;
    QTest::newRow("OOM (maxmemory, noeviction)") << Fault::OutOfMemory;
    QTest::newRow("READONLY replica") << Fault::ReadOnlyReplica;
    QTest::newRow("NOPERM (no CONFIG, KEYS, writes)") << Fault::NoPermission;
}

void TestFaultMatrix::monitor()
{
    FaultCluster cluster(FaultCluster::Start::Healthy);
    QVERIFY2(cluster.started(), qPrintable(cluster.problem()));
    const QByteArrayList before = cluster.healthyFingerprints();

    LockScopeConfig config = quickConfig(cluster.connectionOptions(500));
    config.monitor.reconcileIntervalMs = 2000;
    MonitorRun run(config);
    QVERIFY(run.startAndScan(10000));
    LockMonitor& monitor = run.monitor();
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().contains("lock:fm"), 5000);

    cluster.strike();
    RedisConnection* third = run.masters().at(2);
    if (cluster.takesMasterAway()) {
        QTRY_VERIFY_WITH_TIMEOUT(!third->isUp(), int(upperBoundMs(5000)));
        const RedisError error = third->lastError();
        QVERIFY2(error.toString().contains(cluster.thirdName()), qPrintable(error.toString()));
        QVERIFY2(mentionsAny(error.toString(), cluster.reasonWords()), qPrintable(error.toString()));
        // The two healthy masters still make the quorum, and the view says which master is missing.
        QTRY_COMPARE_WITH_TIMEOUT(monitor.locks().value("lock:fm")->status, LockStatus::Held, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().value("lock:fm")->observations.value(2).error().isError(),
                                 5000);
    } else if (cluster.fault() == Fault::Restarted) {
        // It came back empty with a new run_id: the lock stands on two and is marked at risk.
        QTRY_COMPARE_WITH_TIMEOUT(monitor.locks().value("lock:fm")->holding, 2, 8000);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().value("lock:fm")->atRisk, 8000);
        QCOMPARE(monitor.locks().value("lock:fm")->status, LockStatus::Held);
    } else {
        // Refusing some commands is no reason to stop reading: the third master keeps counting.
        QTRY_COMPARE_WITH_TIMEOUT(monitor.locks().value("lock:fm")->holding, 3, 8000);
        QCOMPARE(monitor.locks().value("lock:fm")->status, LockStatus::Held);
    }
    if (cluster.canRecover()) {
        cluster.recover();
        QTRY_VERIFY_WITH_TIMEOUT(third->isUp(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!monitor.locks().value("lock:fm")->observations.value(2).error().isError(),
                                 10000);
        QCOMPARE(monitor.locks().value("lock:fm")->status, LockStatus::Held);
    } else {
        QVERIFY(!third->isUp());
    }
    // Watching wrote nothing anywhere.
    QCOMPARE(cluster.healthyFingerprints(), before);
}

void TestFaultMatrix::lockctlList()
{
    FaultCluster cluster(FaultCluster::Start::Struck);
    QVERIFY2(cluster.started(), qPrintable(cluster.problem()));
    const QByteArrayList before = cluster.healthyFingerprints();

    const LockctlRun r =
        runLockctl(cluster.masterArgs() + QStringList{QStringLiteral("--timeout-ms"), QStringLiteral("500"),
                                                      QStringLiteral("--json"), QStringLiteral("list")});
    QVERIFY2(r.code == 0, qPrintable(r.describe())); // 2 of 3 is a quorum
    QVERIFY2(r.ms < 10000, qPrintable(r.describe()));
    const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
    const QJsonArray masters = doc.value(QStringLiteral("masters")).toArray();
    QCOMPARE(masters.size(), 3);
    const QJsonObject third = masters.at(2).toObject();
    QCOMPARE(third.value(QStringLiteral("url")).toString(), cluster.thirdName());
    if (cluster.takesMasterAway()) {
        QVERIFY2(!third.value(QStringLiteral("up")).toBool(), qPrintable(r.describe()));
        QVERIFY2(mentionsAny(third.value(QStringLiteral("error")).toString(), cluster.reasonWords()),
                 qPrintable(r.describe()));
    } else {
        QVERIFY2(third.value(QStringLiteral("up")).toBool(), qPrintable(r.describe()));
    }
    bool found = false;
    for (const QJsonValue& v : doc.value(QStringLiteral("locks")).toArray())
        if (v.toObject().value(QStringLiteral("resource")).toString() == QStringLiteral("lock:fm")) {
            found = true;
            QCOMPARE(v.toObject().value(QStringLiteral("status")).toString(), QStringLiteral("held"));
        }
    QVERIFY2(found, qPrintable(r.describe()));

    if (cluster.canRecover()) {
        cluster.recover();
        const LockctlRun again =
            runLockctl(cluster.masterArgs() + QStringList{QStringLiteral("--json"), QStringLiteral("list")});
        QVERIFY2(again.code == 0, qPrintable(again.describe()));
        const QJsonObject back = QJsonDocument::fromJson(again.out)
                                     .object()
                                     .value(QStringLiteral("masters"))
                                     .toArray()
                                     .at(2)
                                     .toObject();
        QVERIFY2(back.value(QStringLiteral("up")).toBool(), qPrintable(again.describe()));
    }
    QCOMPARE(cluster.healthyFingerprints(), before);
}

void TestFaultMatrix::write()
{
    FaultCluster cluster(FaultCluster::Start::Struck);
    QVERIFY2(cluster.started(), qPrintable(cluster.problem()));
    QTemporaryDir dir;
    const QString audit = dir.filePath(QStringLiteral("audit.jsonl"));
    const QStringList global =
        cluster.masterArgs() + QStringList{QStringLiteral("--timeout-ms"), QStringLiteral("500"),
                                           QStringLiteral("--audit-log"), audit};
    const QByteArray thirdBefore = cluster.takesMasterAway() ? QByteArray() : cluster.fingerprint(2);

    const LockctlRun acquired =
        runLockctl(global + QStringList{QStringLiteral("acquire"), QStringLiteral("lock:fm-write"),
                                        QStringLiteral("--ttl"), QStringLiteral("30000"),
                                        QStringLiteral("--retries"), QStringLiteral("0")});
    QVERIFY2(acquired.ms < 10000, qPrintable(acquired.describe()));
    QVERIFY2(acquired.code == 0, qPrintable(acquired.describe())); // 2 of 3 grant it
    const QString token = QString::fromUtf8(acquired.out.split('\n').value(0)).trimmed();
    QVERIFY2(!token.isEmpty(), qPrintable(acquired.describe()));

    const LockctlRun released =
        runLockctl(global + QStringList{QStringLiteral("release"), QStringLiteral("lock:fm-write"),
                                        QStringLiteral("--token"), token});
    QVERIFY2(released.code == 0, qPrintable(released.describe()));
    QVERIFY2(released.ms < 10000, qPrintable(released.describe()));

    // The audit log has exactly the two writes, and names the third master's failure with its reason.
    QFile file(audit);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    const QString acquireLine = QString::fromUtf8(lines.at(0));
    QVERIFY2(acquireLine.contains(QStringLiteral("\"acquire\"")), qPrintable(acquireLine));
    QVERIFY2(acquireLine.contains(cluster.thirdName()), qPrintable(acquireLine));
    if (cluster.fault() != Fault::Restarted)
        QVERIFY2(mentionsAny(acquireLine, cluster.reasonWords()), qPrintable(acquireLine));
    // A master that refuses writes kept its keyspace exactly as it was.
    if (!thirdBefore.isEmpty() && cluster.fault() != Fault::Restarted)
        QCOMPARE(cluster.fingerprint(2), thirdBefore);
    // Nothing of the lock is left on the healthy masters after the release.
    for (int i = 0; i < 2; ++i)
        QCOMPARE(cluster.healthy(i).command({"EXISTS", "lock:fm-write"}).integer, 0);
}

void TestFaultMatrix::unresolvableHostInANetworkNamespace()
{
    // Resolving a name could send a DNS query off this machine. In a fresh network namespace (a user
    // namespace makes that possible without privileges) there is no network at all, so the lookup
    // fails at once and locally. The healthy masters are reached over Unix sockets, which cross
    // network namespaces.
    QProcess probe;
    probe.start(QStringLiteral("unshare"), {QStringLiteral("-rn"), QStringLiteral("true")});
    if (!probe.waitForFinished(int(lockscope::test::upperBoundMs(10000))) || probe.exitCode() != 0)
        QSKIP("user and network namespaces are not available here");

    RedisServerOptions options;
    options.unixSocket = true;
    RedisServerGroup healthy;
    QVERIFY2(healthy.start(2, options), qPrintable(healthy.errorString()));
    for (int i = 0; i < 2; ++i)
        healthy.at(i).command({"SET", "lock:fm", "tok-fm", "PX", "120000"});
    const QStringList args{
        QStringLiteral("-rn"),          lockctlPath(),
        testPasswordArgs().at(0),       testPasswordArgs().at(1),
        QStringLiteral("-m"),           QStringLiteral("unix://") + healthy.at(0).socketPath(),
        QStringLiteral("-m"),           QStringLiteral("unix://") + healthy.at(1).socketPath(),
        QStringLiteral("-m"),           QStringLiteral("redis://no-such-host.invalid:6379"),
        QStringLiteral("--timeout-ms"), QStringLiteral("2000"),
        QStringLiteral("--json"),       QStringLiteral("list")};
    QProcess p;
    p.setProcessEnvironment(testPasswordEnvironment());
    QElapsedTimer clock;
    clock.start();
    p.start(QStringLiteral("unshare"), args);
    QVERIFY(p.waitForFinished(int(lockscope::test::upperBoundMs(30000))));
    const QByteArray out = p.readAllStandardOutput();
    QVERIFY2(p.exitCode() == 0, QByteArray(out + p.readAllStandardError()).constData());
    QVERIFY(clock.elapsed() < 10000);
    const QJsonObject doc = QJsonDocument::fromJson(out).object();
    const QJsonObject third = doc.value(QStringLiteral("masters")).toArray().at(2).toObject();
    QVERIFY(!third.value(QStringLiteral("up")).toBool());
    QVERIFY2(mentionsAny(third.value(QStringLiteral("error")).toString(),
                         {QStringLiteral("not found"), QStringLiteral("resolve"), QStringLiteral("lookup"),
                          QStringLiteral("unknown host"), QStringLiteral("Host")}),
             out.constData());
    QVERIFY(out.contains("lock:fm"));
}

void TestFaultMatrix::window()
{
    FaultCluster cluster(FaultCluster::Start::Healthy);
    QVERIFY2(cluster.started(), qPrintable(cluster.problem()));
    LockScopeConfig config = quickConfig(cluster.connectionOptions(500));
    QTemporaryDir dir;
    MainWindow window(config, dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QSignalSpy scanned(&window, &MainWindow::initialScanFinished);
    QVERIFY(scanned.wait(int(lockscope::test::upperBoundMs(10000))) || window.isInitialScanFinished());
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->rowCount() > 0, 5000);
    // The server as it names itself (issue #46: Valkey 8.0.1 was shown as its redis_version, 7.2.4).
    QTRY_COMPARE(window.masterModel()->index(0, MasterTableModel::VersionColumn).data().toString(),
                 serverIdentity().shown());

    // The window's own thread never waits on a master: the longest gap between ticks of a 10 ms
    // timer, over the whole fault and recovery, stays far below any network timeout.
    QElapsedTimer sinceTick;
    qint64 longestGapMs = 0;
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&] {
        longestGapMs = qMax(longestGapMs, sinceTick.restart());
        ++ticks;
    });
    sinceTick.start();
    ticker.start(10);

    // The fixture's own blocking steps (starting, killing servers) run on this thread too: not counted.
    auto fixtureStep = [&](const std::function<void()>& step) {
        ticker.stop();
        step();
        sinceTick.restart();
        ticker.start(10);
    };
    fixtureStep([&] { cluster.strike(); });
    MasterTableModel* masters = window.masterModel();
    if (cluster.takesMasterAway()) {
        QTRY_COMPARE_WITH_TIMEOUT(masters->upCount(), 2, 5000);
        // Its row says why, in its text or its tooltip.
        auto rowText = [masters] {
            QString text;
            for (int c = 0; c < masters->columnCount(); ++c)
                for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)})
                    text += masters->data(masters->index(2, c), role).toString() + QLatin1Char('\n');
            return text;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(mentionsAny(rowText(), cluster.reasonWords()), qPrintable(rowText()), 5000);
    } else {
        QTRY_COMPARE_WITH_TIMEOUT(masters->upCount(), 3, 5000);
    }
    if (cluster.canRecover()) {
        fixtureStep([&] { cluster.recover(); });
        QTRY_COMPARE_WITH_TIMEOUT(masters->upCount(), 3, 10000);
    }
    QTRY_VERIFY_WITH_TIMEOUT(ticks >= 100, 10000); // at least a second of the window watched
    ticker.stop();
    // A stall a user would notice; scaled for the sanitizer build and a loaded machine (uibench
    // measures the real frame times).
    QVERIFY2(longestGapMs < lockscope::test::upperBoundMs(400),
             qPrintable(QStringLiteral("event loop stalled for %1 ms").arg(longestGapMs)));
    qInfo("longest event-loop gap: %lld ms over %d ticks", longestGapMs, ticks);
    window.close();
}

LOCKSCOPE_TEST_MAIN(TestFaultMatrix)

} // namespace tst_uifaultmatrix

#include "tst_uifaultmatrix.moc"
