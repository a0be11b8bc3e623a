#include "democluster.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <csignal>
#include <cstdio>

using namespace lockscope;

namespace {

bool processExists(qint64 pid)
{
    // Zombies still answer kill(0); a reaped or re-parented-and-dead process does not.
    if (::kill(pid_t(pid), 0) != 0)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close > 0 && line.mid(close + 2, 1) != "Z";
}

bool answers(quint16 port)
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    if (!s.waitForConnected(500))
        return false;
    s.write("PING\r\n");
    return s.waitForReadyRead(500) && s.readAll().startsWith("+PONG");
}

} // namespace

class TestDemoCluster : public QObject
{
    Q_OBJECT

private slots:
    void startsAndStopsCleanly();
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
            QVERIFY(answers(cluster.port(i)));
            pids << cluster.pid(i);
        }
    }
    for (qint64 pid : pids)
        QTRY_VERIFY(!processExists(pid));
}

void TestDemoCluster::killPauseResumeRestart()
{
    DemoCluster cluster;
    QVERIFY(cluster.start(3).ok());
    QSignalSpy states(&cluster, &DemoCluster::masterStateChanged);
    cluster.pause(1);
    QCOMPARE(cluster.state(1), DemoCluster::MasterState::Paused);
    QVERIFY(!answers(cluster.port(1)));
    cluster.resume(1);
    QVERIFY(answers(cluster.port(1)));
    const qint64 before = cluster.pid(2);
    cluster.kill(2);
    QCOMPARE(cluster.state(2), DemoCluster::MasterState::Killed);
    QVERIFY(!answers(cluster.port(2)));
    QVERIFY(!processExists(before));
    QVERIFY(cluster.restart(2));
    QVERIFY(answers(cluster.port(2)));
    QVERIFY(cluster.pid(2) != before);
    QCOMPARE(states.count(), 4); // paused, running, killed, running
}

void TestDemoCluster::serversDieWithAKilledHost()
{
    // This same executable, in host mode, starts a cluster, prints the servers' pids and waits.
    QProcess host;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LOCKSCOPE_DEMO_HOST"), QStringLiteral("1"));
    host.setProcessEnvironment(env);
    host.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(host.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(host.canReadLine(), 15000);
    QList<qint64> pids;
    for (const QByteArray& p : host.readLine().trimmed().split(' '))
        pids << p.toLongLong();
    QCOMPARE(pids.size(), 5);
    for (qint64 pid : pids)
        QVERIFY(processExists(pid));
    ::kill(pid_t(host.processId()), SIGKILL); // no destructor, no clean-up code runs
    QVERIFY(host.waitForFinished(5000));
    for (qint64 pid : pids)
        QTRY_VERIFY_WITH_TIMEOUT(!processExists(pid), 5000);
}

int main(int argc, char** argv)
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

#include "tst_democluster.moc"
