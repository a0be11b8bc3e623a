// SPDX-License-Identifier: Apache-2.0
// The demo's servers are not open to other local users: every redis-server and redis-sentinel it
// starts requires a random password that is neither in a process's arguments nor in a file anyone
// but us can read, and the window's names for them leave it out. A port taken between the demo's
// pick and the server's bind (tests running in parallel) makes it try another port, not fail.
#include "config/configloader.h"
#include "connection/redisconnection.h"
#include "demo/democluster.h"
#include "demo/democonfig.h"
#include "demo/demosentinelgroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "topology/masterset.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

namespace tst_demosecurity {

using namespace lockscope;

namespace {

// What a server answers to PING, after AUTH when `password` is given.
QByteArray pingReply(quint16 port, const QString& password = {})
{
    QTcpSocket s;
    s.connectToHost(QHostAddress::LocalHost, port);
    if (!s.waitForConnected(int(lockscope::test::upperBoundMs(2000))))
        return "(no connection)";
    const QByteArray expectAuth = password.isEmpty() ? QByteArray() : QByteArray("+OK\r\n");
    if (!password.isEmpty())
        s.write("AUTH " + password.toUtf8() + "\r\n");
    s.write("PING\r\n");
    QByteArray got;
    while (got.count('\n') < (password.isEmpty() ? 1 : 2) &&
           s.waitForReadyRead(int(lockscope::test::upperBoundMs(2000))))
        got += s.readAll();
    return got.startsWith(expectAuth) ? got.mid(expectAuth.size()).trimmed() : got.trimmed();
}

QByteArray commandLine(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The configuration file of a server (in its working directory, the `dir` it was given) holds the
// password and is ours alone, in a temporary directory that is ours alone. The command line (what
// `ps` shows every user) does not hold it.
void checkPrivateFiles(qint64 pid, const QString& password)
{
    QVERIFY2(!commandLine(pid).contains(password.toUtf8()), commandLine(pid).constData());
    const QString dir = QFileInfo(QStringLiteral("/proc/%1/cwd").arg(pid)).symLinkTarget();
    QVERIFY2(!dir.isEmpty(), "no working directory");
    const QString conf = dir + QStringLiteral("/redis.conf");
    QFile confFile(conf);
    QVERIFY2(confFile.open(QIODevice::ReadOnly), qPrintable(conf));
    QVERIFY(confFile.readAll().contains(password.toUtf8()));
    QCOMPARE(QFileInfo(conf).permissions() &
                 (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther),
             QFile::Permissions());
    // The temporary directory above the per-port one: mode 0700.
    const QFileInfo top(QFileInfo(dir).absolutePath());
    QCOMPARE(top.permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::ExeGroup | QFile::ExeOther),
             QFile::Permissions());
}

// Hands out `taken` first, then free ports.
std::function<quint16()> takenFirst(quint16 taken, int* handedOut)
{
    return [taken, handedOut] {
        if ((*handedOut)++ == 0)
            return taken;
        QTcpServer probe;
        return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : quint16(0);
    };
}

// Every port twice in a row, as the kernel's pick for port 0 may give a port again while the server
// it went to has not bound it yet.
std::function<quint16()> eachPortTwice(int* handedOut)
{
    return [handedOut, last = quint16(0)]() mutable {
        if ((*handedOut)++ % 2 == 1)
            return last;
        QTcpServer probe;
        last = probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : quint16(0);
        return last;
    };
}

// Waits until `started` or `failed` fired: empty when it started, else why not.
QString waitForStart(const QSignalSpy& started, const QSignalSpy& failed, int timeoutMs)
{
    QDeadlineTimer deadline(lockscope::test::upperBoundMs(timeoutMs));
    while (started.isEmpty() && failed.isEmpty() && !deadline.hasExpired())
        QTest::qWait(20);
    if (!failed.isEmpty())
        return failed.first().first().value<RedisError>().message;
    return started.isEmpty() ? QStringLiteral("neither started nor failed in time") : QString();
}

} // namespace

class TestDemoSecurity : public QObject
{
    Q_OBJECT

private slots:
    void clusterRequiresItsPassword();
    void clusterRetriesATakenPort();
    void sentinelGroupRequiresItsPasswordAndRetriesATakenPort();
    void noPortGoesToTwoMasters();
    void noPortGoesToTwoSentinelGroupNodes();
};

void TestDemoSecurity::noPortGoesToTwoMasters()
{
    // With one port handed to two masters, one server lost the bind, the probe of its port reached
    // the other (same password), and the start waited for ever for the loser (found by the #40
    // branch's sanitizer pass).
    int handedOut = 0;
    DemoCluster cluster;
    cluster.setPortSource(eachPortTwice(&handedOut));
    QSignalSpy started(&cluster, &DemoCluster::started);
    QSignalSpy failed(&cluster, &DemoCluster::startFailed);
    cluster.startAsync(5);
    QSet<quint16> ports;
    for (int i = 0; i < cluster.size(); ++i)
        ports.insert(cluster.port(i));
    QCOMPARE(ports.size(), 5);
    const QString why = waitForStart(started, failed, 30000);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    for (int i = 0; i < 5; ++i)
        QCOMPARE(pingReply(cluster.port(i), cluster.password()), QByteArray("+PONG"));
}

void TestDemoSecurity::noPortGoesToTwoSentinelGroupNodes()
{
    int handedOut = 0;
    DemoSentinelGroup group;
    group.setPortSource(eachPortTwice(&handedOut));
    QSignalSpy started(&group, &DemoSentinelGroup::started);
    QSignalSpy failed(&group, &DemoSentinelGroup::startFailed);
    group.startAsync();
    const QString why = waitForStart(started, failed, DemoSentinelGroup::settleTimeoutMs + 5000);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const QStringList hosts =
        group.url().section(QLatin1Char('@'), 1).section(QLatin1Char('/'), 0, 0).split(QLatin1Char(','));
    QSet<quint16> ports{group.primaryPort(), group.replicaPort()};
    for (const QString& h : hosts)
        ports.insert(h.section(QLatin1Char(':'), 1).toUShort());
    QCOMPARE(ports.size(), 2 + DemoSentinelGroup::sentinelCount);
}

void TestDemoSecurity::clusterRequiresItsPassword()
{
    DemoCluster cluster;
    const Result<QStringList> urls = cluster.start(2);
    QVERIFY2(urls.ok(), qPrintable(urls.ok() ? QString() : urls.error().message));
    QVERIFY(cluster.password().size() >= 32);
    for (int i = 0; i < 2; ++i) {
        QVERIFY2(pingReply(cluster.port(i)).startsWith("-NOAUTH"), pingReply(cluster.port(i)).constData());
        QCOMPARE(pingReply(cluster.port(i), cluster.password()), QByteArray("+PONG"));
        checkPrivateFiles(cluster.pid(i), cluster.password());
        if (QTest::currentTestFailed())
            return;
    }
    // The demo's own connections use it; what the window shows of them does not.
    const Result<LockScopeConfig> config = demoConfig(*urls);
    QVERIFY(config.ok());
    MasterSet masters(config->masters);
    masters.open();
    QTRY_COMPARE_WITH_TIMEOUT(masters.upCount(), 2, 5000);
    for (int i = 0; i < 2; ++i) {
        QVERIFY(!masters.at(i)->name().contains(cluster.password()));
        QCOMPARE(masters.at(i)->name(), QStringLiteral("redis://127.0.0.1:%1").arg(cluster.port(i)));
    }
    // A new start, a new password.
    const QString first = cluster.password();
    QVERIFY(cluster.start(1).ok());
    QVERIFY(cluster.password() != first);
}

void TestDemoSecurity::clusterRetriesATakenPort()
{
    // Someone else listens on the port the cluster picks first (as another test's server may).
    QTcpServer squatter;
    QVERIFY(squatter.listen(QHostAddress::LocalHost, 0));
    int handedOut = 0;
    DemoCluster cluster;
    cluster.setPortSource(takenFirst(squatter.serverPort(), &handedOut));
    const Result<QStringList> urls = cluster.start(2);
    QVERIFY2(urls.ok(), qPrintable(urls.ok() ? QString() : urls.error().message));
    QVERIFY(handedOut >= 3);
    QVERIFY(cluster.port(0) != squatter.serverPort());
    // Both are the demo's own servers, not whatever accepted connections on the taken port.
    for (int i = 0; i < 2; ++i)
        QCOMPARE(pingReply(cluster.port(i), cluster.password()), QByteArray("+PONG"));
}

void TestDemoSecurity::sentinelGroupRequiresItsPasswordAndRetriesATakenPort()
{
    QTcpServer squatter;
    QVERIFY(squatter.listen(QHostAddress::LocalHost, 0));
    int handedOut = 0;
    DemoSentinelGroup group;
    group.setPortSource(takenFirst(squatter.serverPort(), &handedOut)); // the primary's port
    QSignalSpy started(&group, &DemoSentinelGroup::started);
    QSignalSpy failed(&group, &DemoSentinelGroup::startFailed);
    group.startAsync();
    const QString why = waitForStart(started, failed, DemoSentinelGroup::settleTimeoutMs + 5000);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QVERIFY(group.primaryPort() != squatter.serverPort());
    QVERIFY(handedOut > 5); // a second set of ports
    QVERIFY(group.password().size() >= 32);
    // Data nodes and sentinels alike refuse a client without the password.
    const QString url = group.url();
    QVERIFY(url.contains(QStringLiteral("sentinel-auth=yes")));
    const QStringList hosts =
        url.section(QLatin1Char('@'), 1).section(QLatin1Char('/'), 0, 0).split(QLatin1Char(','));
    QCOMPARE(hosts.size(), DemoSentinelGroup::sentinelCount);
    QList<quint16> ports{group.primaryPort(), group.replicaPort()};
    for (const QString& h : hosts)
        ports << h.section(QLatin1Char(':'), 1).toUShort();
    for (quint16 port : ports) {
        QVERIFY2(pingReply(port).startsWith("-NOAUTH"), pingReply(port).constData());
        QCOMPARE(pingReply(port, group.password()), QByteArray("+PONG"));
    }
    for (qint64 pid : group.startedPids())
        if (!commandLine(pid).isEmpty())
            QVERIFY(!commandLine(pid).contains(group.password().toUtf8()));
    // The group as a master entry: up through the sentinels, named without the password.
    Result<ConnectionOptions> entry = ConfigLoader::masterFromUrl(url, TlsOptions(), 2000);
    QVERIFY(entry.ok());
    MasterSet masters({*entry});
    masters.open();
    QTRY_VERIFY_WITH_TIMEOUT(masters.at(0)->isUp(), 10000);
    QVERIFY(!masters.at(0)->name().contains(group.password()));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestDemoSecurity)

} // namespace tst_demosecurity

#include "tst_demosecurity.moc"
