// Faults on one master of three, each seen by every client of the core: the monitor in-process,
// the window (offscreen), `lockctl list --json`, and a write (`lockctl acquire` then `release`). Data-driven:
// one row per fault. In every row the clients stay responsive (bounded time), say which master failed and
// why, keep serving what the two healthy masters hold, write nothing that was not asked for, and recover when
// the master comes back (where the fault is one that can end).
#include "locks/locktablemodel.h"
#include "masters/mastertablemodel.h"
#include "monitor/lockmonitor.h"
#include "support/lockctlrun.h"
#include "support/monitorrun.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
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
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>

namespace tst_uifaultmatrix {

using namespace lockscope;
using namespace lockscope::test;

namespace {

enum class Fault
{
    Killed,
    Paused,
    Restarted,
    Slowed,
    RefusedAtStart,
    TlsPortWithPlainTcp,
    ClosesMidReply,
    OutOfMemory,
    ReadOnlyReplica,
    NoPermission,
};

// A peer that accepts, answers whatever it is sent with the first half of a bulk reply, and hangs up.
class HalfReplyPeer final : public QObject
{
public:
    HalfReplyPeer()
    {
        m_server.listen(QHostAddress::LocalHost);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = m_server.nextPendingConnection()) {
                ++m_connections;
                connect(s, &QTcpSocket::readyRead, s, [s] {
                    s->readAll();
                    s->write("$10\r\nhalf");
                    s->flush();
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    quint16 port() const { return m_server.serverPort(); }
    int connections() const { return m_connections; }

private:
    QTcpServer m_server;
    int m_connections = 0;
};

// One row's cluster: two healthy masters and the faulty third.
class FaultCluster
{
public:
    explicit FaultCluster(Fault fault) : m_fault(fault) {}
    ~FaultCluster()
    {
        if (m_sleeper && m_sleeper->state() != QProcess::NotRunning) {
            m_sleeper->kill(); // the redis-cli this fixture started, nothing else
            m_sleeper->waitForFinished(5000);
        }
    }
    FaultCluster(const FaultCluster&) = delete;
    FaultCluster& operator=(const FaultCluster&) = delete;

    bool start(QString* why)
    {
        if (!m_healthy.start(2)) {
            *why = m_healthy.errorString();
            return false;
        }
        RedisServerOptions options;
        switch (m_fault) {
        case Fault::TlsPortWithPlainTcp:
            options.tls = true;
            break;
        case Fault::NoPermission:
            options.aclUser = QStringLiteral("reader");
            // The fixture password: lockctl takes it from --password-env, as for the other masters.
            options.aclPassword = testPassword();
            // Reading and subscribing still work; CONFIG, KEYS and every write are refused.
            options.aclRules = QStringLiteral("~* &* +@all -@write -@scripting -config -keys");
            break;
        default:
            break;
        }
        if (m_fault != Fault::ClosesMidReply) {
            m_third = std::make_unique<RedisServer>(options);
            if (!m_third->start()) {
                *why = m_third->errorString();
                return false;
            }
        }
        for (int i = 0; i < 2; ++i)
            m_healthy.at(i).command({"SET", "lock:fm", "tok-fm", "PX", "120000"});
        if (m_third)
            m_third->command({"SET", "lock:fm", "tok-fm", "PX", "120000"});

        switch (m_fault) {
        case Fault::ClosesMidReply:
            m_peer = std::make_unique<HalfReplyPeer>();
            m_thirdUrl = QStringLiteral("redis://127.0.0.1:%1").arg(m_peer->port());
            break;
        case Fault::TlsPortWithPlainTcp:
            m_thirdUrl = QStringLiteral("redis://127.0.0.1:%1").arg(m_third->port());
            break;
        case Fault::ReadOnlyReplica:
            m_source = std::make_unique<RedisServer>();
            if (!m_source->start()) {
                *why = m_source->errorString();
                return false;
            }
            m_source->command({"SET", "lock:fm", "tok-fm", "PX", "120000"});
            m_third->command({"REPLICAOF", "127.0.0.1", QByteArray::number(m_source->port())});
            m_thirdUrl = m_third->url();
            break;
        case Fault::OutOfMemory:
            m_third->command({"CONFIG", "SET", "maxmemory-policy", "noeviction"});
            m_third->command({"CONFIG", "SET", "maxmemory", "1"});
            m_thirdUrl = m_third->url();
            break;
        case Fault::RefusedAtStart:
            m_third->stop();
            m_thirdUrl = m_third->url();
            break;
        default:
            m_thirdUrl = m_third->url();
            break;
        }
        if (m_fault == Fault::ReadOnlyReplica) {
            QElapsedTimer clock;
            clock.start();
            while (m_third->command({"GET", "lock:fm"}).string != "tok-fm" && clock.elapsed() < 10000)
                QTest::qWait(20); // replication is asynchronous: wait for the replica to catch up
        }
        return true;
    }

    // Faults that strike a running master strike now; the others are there from the start.
    // Started with the fault already struck.
    bool startStruck(QString* why)
    {
        if (!start(why))
            return false;
        strike();
        return true;
    }

    void strike()
    {
        switch (m_fault) {
        case Fault::Killed:
            m_third->kill();
            break;
        case Fault::Paused:
            m_third->pause();
            break;
        case Fault::Restarted:
            m_third->restart();
            break;
        case Fault::Slowed:
            m_sleeper = std::make_unique<QProcess>();
            m_sleeper->setProcessEnvironment(m_third->cliEnvironment());
            m_sleeper->start(QStringLiteral("redis-cli"),
                             {QStringLiteral("-p"), QString::number(m_third->adminPort()),
                              QStringLiteral("DEBUG"), QStringLiteral("SLEEP"), QStringLiteral("5")});
            m_sleeper->waitForStarted();
            // redis-cli starting is not the server sleeping: under load the test's own write could
            // reach the master first and find it healthy. Wait until the master stops answering.
            QVERIFY2(waitUntilAsleep(), "DEBUG SLEEP did not take the third master away");
            break;
        default:
            break;
        }
    }

    // Whether the sleeping master has stopped answering: a PING on a new connection (refused with
    // NOAUTH while it is awake, which is an answer too) gets no reply within 300 ms.
    bool waitUntilAsleep() const
    {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 5000) {
            QTcpSocket probe;
            probe.connectToHost(QHostAddress::LocalHost, m_third->adminPort());
            if (!probe.waitForConnected(int(lockscope::test::upperBoundMs(1000))))
                return false;
            probe.write("PING\r\n");
            if (!probe.waitForReadyRead(int(lockscope::test::upperBoundMs(300))))
                return true;
            QTest::qWait(20);
        }
        return false;
    }

    // Whether the master can come back, and bringing it back.
    bool canRecover() const
    {
        return m_fault != Fault::TlsPortWithPlainTcp && m_fault != Fault::ClosesMidReply;
    }
    void recover()
    {
        switch (m_fault) {
        case Fault::Killed:
        case Fault::RefusedAtStart:
            QVERIFY(m_third->restart());
            break;
        case Fault::Paused:
            m_third->resume();
            break;
        case Fault::Slowed:
            QVERIFY(m_sleeper->waitForFinished(20000));
            break;
        default:
            break;
        }
    }
    // Whether the fault takes the master away (as opposed to refusing some commands).
    bool takesMasterAway() const
    {
        return m_fault != Fault::OutOfMemory && m_fault != Fault::ReadOnlyReplica &&
               m_fault != Fault::NoPermission && m_fault != Fault::Restarted;
    }
    // Words one of which the third master's error must contain.
    QStringList reasonWords() const
    {
        switch (m_fault) {
        case Fault::Killed:
        case Fault::RefusedAtStart:
            return {QStringLiteral("refused"), QStringLiteral("closed"), QStringLiteral("timed out"),
                    QStringLiteral("timeout")};
        case Fault::Paused:
        case Fault::Slowed:
            return {QStringLiteral("no reply within"), QStringLiteral("no connection within"),
                    QStringLiteral("timed out")};
        case Fault::TlsPortWithPlainTcp:
            return {QStringLiteral("TLS"), QStringLiteral("closed"), QStringLiteral("timed out")};
        case Fault::ClosesMidReply:
            return {QStringLiteral("closed"), QStringLiteral("reset"), QStringLiteral("lost")};
        case Fault::OutOfMemory:
            return {QStringLiteral("OOM")};
        case Fault::ReadOnlyReplica:
            return {QStringLiteral("READONLY")};
        case Fault::NoPermission:
            return {QStringLiteral("NOPERM"), QStringLiteral("permission")};
        default:
            return {};
        }
    }

    QStringList masterArgs()
    {
        // The fixture password from the environment runLockctl gives lockctl; the URLs leave it out.
        const QString third = m_third && m_thirdUrl == m_third->url() ? m_third->url(false) : m_thirdUrl;
        return testPasswordArgs() + QStringList{QStringLiteral("-m"), m_healthy.at(0).url(false),
                                                QStringLiteral("-m"), m_healthy.at(1).url(false),
                                                QStringLiteral("-m"), third};
    }
    QList<ConnectionOptions> connectionOptions(int timeoutMs)
    {
        QList<ConnectionOptions> all = m_healthy.connectionOptions(timeoutMs);
        ConnectionOptions third;
        third.url = *RedisUrl::parse(m_thirdUrl);
        third.commandTimeoutMs = timeoutMs;
        third.connectTimeoutMs = timeoutMs;
        all << third;
        return all;
    }
    // The third master's name as every message shows it (no password).
    QString thirdName() const { return RedisUrl::parse(m_thirdUrl)->toString(); }

    // Every master's keyspace as one fingerprint: keys, types and values (TTLs left out).
    QByteArray fingerprint(int master)
    {
        RedisServer* s = master < 2 ? &m_healthy.at(master) : m_third.get();
        if (!s || !s->isRunning())
            return "(not running)";
        if (m_fault == Fault::Paused && master == 2)
            return "(paused)";
        return s->command({"DEBUG", "DIGEST"}).string + ' ' +
               QByteArray::number(s->command({"DBSIZE"}).integer);
    }
    // The two healthy masters' fingerprints: a fault on the third must leave them as they were.
    QByteArrayList healthyFingerprints() { return {fingerprint(0), fingerprint(1)}; }
    RedisServer& healthy(int i) { return m_healthy.at(i); }
    int thirdConnections() const { return m_peer ? m_peer->connections() : -1; }

private:
    Fault m_fault;
    RedisServerGroup m_healthy;
    std::unique_ptr<RedisServer> m_third;
    std::unique_ptr<RedisServer> m_source; // the replica's master
    std::unique_ptr<HalfReplyPeer> m_peer;
    std::unique_ptr<QProcess> m_sleeper;
    QString m_thirdUrl;
};

bool mentionsAny(const QString& text, const QStringList& words)
{
    for (const QString& w : words)
        if (text.contains(w, Qt::CaseInsensitive))
            return true;
    return false;
}

} // namespace

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
    QFETCH(Fault, fault);
    FaultCluster cluster(fault);
    QString why;
    QVERIFY2(cluster.start(&why), qPrintable(why));
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
        QTRY_VERIFY_WITH_TIMEOUT(!third->isUp(), 5000);
        const RedisError error = third->lastError();
        QVERIFY2(error.toString().contains(cluster.thirdName()), qPrintable(error.toString()));
        QVERIFY2(mentionsAny(error.toString(), cluster.reasonWords()), qPrintable(error.toString()));
        // The two healthy masters still make the quorum, and the view says which master is missing.
        QTRY_COMPARE_WITH_TIMEOUT(monitor.locks().value("lock:fm")->status, LockStatus::Held, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().value("lock:fm")->observations.value(2).error().isError(),
                                 5000);
    } else if (fault == Fault::Restarted) {
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
    QFETCH(Fault, fault);
    FaultCluster cluster(fault);
    QString why;
    QVERIFY2(cluster.startStruck(&why), qPrintable(why));
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
    QFETCH(Fault, fault);
    FaultCluster cluster(fault);
    QString why;
    QVERIFY2(cluster.startStruck(&why), qPrintable(why));
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
    if (fault != Fault::Restarted)
        QVERIFY2(mentionsAny(acquireLine, cluster.reasonWords()), qPrintable(acquireLine));
    // A master that refuses writes kept its keyspace exactly as it was.
    if (!thirdBefore.isEmpty() && fault != Fault::Restarted)
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
    QFETCH(Fault, fault);
    FaultCluster cluster(fault);
    QString why;
    QVERIFY2(cluster.start(&why), qPrintable(why));
    LockScopeConfig config = quickConfig(cluster.connectionOptions(500));
    QTemporaryDir dir;
    MainWindow window(config, dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QSignalSpy scanned(&window, &MainWindow::initialScanFinished);
    QVERIFY(scanned.wait(int(lockscope::test::upperBoundMs(10000))) || window.isInitialScanFinished());
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->rowCount() > 0, 5000);

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
