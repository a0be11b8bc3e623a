// SPDX-License-Identifier: Apache-2.0
#include "demo/democluster.h"
#include "demo/demoserverprogram.h"
#include "support/processexists.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstdio>

namespace tst_democluster {

using namespace lockscope;
using lockscope::test::processExists;

namespace {

// The demo's masters require their password (tst_demosecurity checks that they refuse others).
bool answers(const DemoCluster& cluster, int index)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, cluster.port(index));
    if (!s.waitForConnected(int(lockscope::test::upperBoundMs(500))))
        return false;
    s.write("AUTH " + cluster.password().toUtf8() + "\r\nPING\r\n");
    QByteArray got;
    while (got.count('\n') < 2 && s.waitForReadyRead(int(lockscope::test::upperBoundMs(500))))
        got += s.readAll();
    return got == "+OK\r\n+PONG\r\n";
}

} // namespace

class TestDemoCluster : public QObject
{
    Q_OBJECT

private slots:
    void startsAndStopsCleanly();
    void startDoesNotBlock();
    void aMissingProgramFailsTyped();
    void runsOnValkeyWhereItIsTheOnlyServer();
    void killPauseResumeRestart();
    void serversDieWithAKilledHost();
};

void TestDemoCluster::startsAndStopsCleanly()
{
    QList<qint64> pids;
    {
        DemoCluster cluster;
        const Result<QStringList> urls = cluster.start(5);
        QVERIFY2(urls.ok(), qPrintable(urls.ok() ? QString() : urls.error().message));
        QCOMPARE(urls->size(), 5);
        for (int i = 0; i < 5; ++i) {
            QVERIFY(answers(cluster, i));
            pids << cluster.pid(i);
        }
    }
    for (qint64 pid : pids)
        QTRY_VERIFY(!processExists(pid));
}

void TestDemoCluster::startDoesNotBlock()
{
    DemoCluster cluster;
    QSignalSpy started(&cluster, &DemoCluster::started);
    QElapsedTimer clock;
    clock.start();
    cluster.startAsync(5);
    const qint64 launchMs = clock.elapsed();
    QVERIFY(!cluster.isStarted());
    QCOMPARE(cluster.urls().size(), 5); // the ports are known at once
    QVERIFY(started.wait(int(lockscope::test::upperBoundMs(30000))));
    qInfo("launch returned after %lld ms, all five accepting after %lld ms", launchMs, clock.elapsed());
    QVERIFY(cluster.isStarted());
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(cluster.state(i), DemoCluster::MasterState::Running);
        QVERIFY(answers(cluster, i));
    }
    // Launching five processes is fork+exec; the wait for them to listen happened in the event loop.
    QVERIFY2(launchMs < lockscope::test::upperBoundMs(1000), qPrintable(QString::number(launchMs)));
}

void TestDemoCluster::aMissingProgramFailsTyped()
{
    DemoCluster cluster;
    const Result<QStringList> urls = cluster.start(2, QStringLiteral("/nonexistent/redis-server"));
    QVERIFY(!urls.ok());
    QCOMPARE(urls.error().kind, ErrorKind::Io);
    QCOMPARE(cluster.size(), 0);
}

// A machine with only Valkey installed has no redis-server (issue #46): the demo starts its masters
// with valkey-server there, and with redis-server wherever that is found.
void TestDemoCluster::runsOnValkeyWhereItIsTheOnlyServer()
{
    const QString valkey = QStandardPaths::findExecutable(QStringLiteral("valkey-server"));
    const QString redis = QStandardPaths::findExecutable(QStringLiteral("redis-server"));
    QVERIFY2(!valkey.isEmpty() && !redis.isEmpty(), "scripts/install-deps.sh --tests installs both servers");
    const QByteArray path = qgetenv("PATH");
    auto restore = qScopeGuard([&path] { qputenv("PATH", path); });
    QTemporaryDir onlyValkey;
    QTemporaryDir both;
    QVERIFY(QFile::link(valkey, onlyValkey.filePath(QStringLiteral("valkey-server"))));
    QVERIFY(QFile::link(valkey, both.filePath(QStringLiteral("valkey-server"))));
    QVERIFY(QFile::link(redis, both.filePath(QStringLiteral("redis-server"))));

    qputenv("PATH", both.path().toLocal8Bit());
    QCOMPARE(demoServerProgram(), QStringLiteral("redis-server"));
    qputenv("PATH", QByteArray());
    QCOMPARE(demoServerProgram(), QStringLiteral("redis-server")); // neither: the usual "not found"

    qputenv("PATH", onlyValkey.path().toLocal8Bit());
    QCOMPARE(demoServerProgram(), QStringLiteral("valkey-server"));
    DemoCluster cluster;
    const Result<QStringList> urls = cluster.start(2);
    QVERIFY2(urls.ok(), qPrintable(urls.ok() ? QString() : urls.error().message));
    for (int i = 0; i < 2; ++i) {
        QVERIFY(answers(cluster, i));
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, cluster.port(i));
        QVERIFY(s.waitForConnected(int(lockscope::test::upperBoundMs(2000))));
        s.write("AUTH " + cluster.password().toUtf8() + "\r\nINFO server\r\n");
        QByteArray info;
        while (!info.contains("valkey_version") &&
               s.waitForReadyRead(int(lockscope::test::upperBoundMs(2000))))
            info += s.readAll();
        QVERIFY2(info.contains("server_name:valkey"), info.constData());
    }
}

void TestDemoCluster::killPauseResumeRestart()
{
    DemoCluster cluster;
    QVERIFY(cluster.start(3).ok());
    QSignalSpy states(&cluster, &DemoCluster::masterStateChanged);
    cluster.pause(1);
    QCOMPARE(cluster.state(1), DemoCluster::MasterState::Paused);
    QVERIFY(!answers(cluster, 1));
    cluster.resume(1);
    QVERIFY(answers(cluster, 1));
    const qint64 before = cluster.pid(2);
    cluster.kill(2);
    QCOMPARE(cluster.state(2), DemoCluster::MasterState::Killed);
    QVERIFY(!answers(cluster, 2));
    QVERIFY(!processExists(before));
    QVERIFY(cluster.restart(2)); // launched; it answers once it says Running
    QCOMPARE(cluster.state(2), DemoCluster::MasterState::Starting);
    QTRY_COMPARE_WITH_TIMEOUT(cluster.state(2), DemoCluster::MasterState::Running, 15000);
    QVERIFY(answers(cluster, 2));
    QVERIFY(cluster.pid(2) != before);
    QCOMPARE(states.count(), 5); // paused, running, killed, starting, running
}

void TestDemoCluster::serversDieWithAKilledHost()
{
    // This same executable, in host mode, starts a cluster, prints the servers' pids and waits.
    QProcess host;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LOCKSCOPE_DEMO_HOST"), QStringLiteral("1"));
    host.setProcessEnvironment(env);
    host.start(QCoreApplication::applicationFilePath(), test::selfArguments());
    QVERIFY(host.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(host.canReadLine(), 15000);
    QList<qint64> pids;
    for (const QByteArray& p : host.readLine().trimmed().split(' '))
        pids << p.toLongLong();
    QCOMPARE(pids.size(), 5);
    for (qint64 pid : pids)
        QVERIFY(processExists(pid));
    ::kill(pid_t(host.processId()), SIGKILL); // no destructor, no clean-up code runs
    QVERIFY(host.waitForFinished(int(lockscope::test::upperBoundMs(5000))));
    for (qint64 pid : pids)
        QTRY_VERIFY_WITH_TIMEOUT(!processExists(pid), 5000);
}

namespace {

int runTest(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (qEnvironmentVariableIsSet("LOCKSCOPE_DEMO_HOST")) {
        DemoCluster cluster;
        if (!cluster.start(5).ok())
            return 1;
        QByteArrayList pids;
        for (int i = 0; i < cluster.size(); ++i)
            pids << QByteArray::number(cluster.pid(i));
        std::printf("%s\n", pids.join(' ').constData());
        std::fflush(stdout);
        return app.exec(); // until killed
    }
    TestDemoCluster test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace

LOCKSCOPE_TEST_ENTRY(runTest)

} // namespace tst_democluster

#include "tst_democluster.moc"
