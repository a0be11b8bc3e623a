// SPDX-License-Identifier: Apache-2.0
#include "support/faultcluster.h"

#include "support/lockctlrun.h"
#include "support/timebound.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <algorithm>

namespace lockscope::test {

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

FaultCluster::FaultCluster(Start when)
{
    QFETCH(Fault, fault);
    m_fault = fault;
    if (start(&m_problem) && when == Start::Struck)
        strike();
}

FaultCluster::~FaultCluster()
{
    if (m_sleeper && m_sleeper->state() != QProcess::NotRunning) {
        m_sleeper->kill(); // the redis-cli this fixture started, nothing else
        m_sleeper->waitForFinished(5000);
    }
}

bool FaultCluster::start(QString* why)
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

void FaultCluster::strike()
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
        // 5 s on an idle machine, longer under the sanitizers or load: the monitor must see the
        // master away before it wakes (a loaded ASan pass took most of a 5 s sleep to notice, and
        // the master answered again first: fresh-clone run 13).
        m_sleepS = int(std::clamp<qint64>((lockscope::test::upperBoundMs(5000) + 999) / 1000, 5, 30));
        m_sleeper->start(QStringLiteral("redis-cli"),
                         {QStringLiteral("-p"), QString::number(m_third->adminPort()),
                          QStringLiteral("DEBUG"), QStringLiteral("SLEEP"), QString::number(m_sleepS)});
        m_sleeper->waitForStarted();
        // redis-cli starting is not the server sleeping: under load the test's own write could
        // reach the master first and find it healthy. Wait until the master stops answering.
        QVERIFY2(waitUntilAsleep(), "DEBUG SLEEP did not take the third master away");
        break;
    default:
        break;
    }
}

bool FaultCluster::waitUntilAsleep() const
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

bool FaultCluster::canRecover() const
{
    return m_fault != Fault::TlsPortWithPlainTcp && m_fault != Fault::ClosesMidReply;
}

void FaultCluster::recover()
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
        // DEBUG SLEEP answers after its seconds of the server's time; a loaded machine adds its own.
        if (const int boundMs = int(qMax<qint64>(upperBoundMs(20000), m_sleepS * 1000 + upperBoundMs(5000)));
            m_sleeper->state() != QProcess::NotRunning && !m_sleeper->waitForFinished(boundMs))
            QFAIL(qPrintable(QStringLiteral("redis-cli DEBUG SLEEP still running after %1 ms").arg(boundMs)));
        break;
    default:
        break;
    }
}

bool FaultCluster::takesMasterAway() const
{
    return m_fault != Fault::OutOfMemory && m_fault != Fault::ReadOnlyReplica &&
           m_fault != Fault::NoPermission && m_fault != Fault::Restarted;
}

QStringList FaultCluster::reasonWords() const
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

QStringList FaultCluster::masterArgs()
{
    // The fixture password from the environment runLockctl gives lockctl; the URLs leave it out.
    const QString third = m_third && m_thirdUrl == m_third->url() ? m_third->url(false) : m_thirdUrl;
    return testPasswordArgs() + QStringList{QStringLiteral("-m"), m_healthy.at(0).url(false),
                                            QStringLiteral("-m"), m_healthy.at(1).url(false),
                                            QStringLiteral("-m"), third};
}

QList<ConnectionOptions> FaultCluster::connectionOptions(int timeoutMs)
{
    QList<ConnectionOptions> all = m_healthy.connectionOptions(timeoutMs);
    ConnectionOptions third;
    third.url = *RedisUrl::parse(m_thirdUrl);
    third.commandTimeoutMs = timeoutMs;
    third.connectTimeoutMs = timeoutMs;
    all << third;
    return all;
}

QByteArray FaultCluster::fingerprint(int master)
{
    RedisServer* s = master < 2 ? &m_healthy.at(master) : m_third.get();
    if (!s || !s->isRunning())
        return "(not running)";
    if (m_fault == Fault::Paused && master == 2)
        return "(paused)";
    return s->command({"DEBUG", "DIGEST"}).string + ' ' + QByteArray::number(s->command({"DBSIZE"}).integer);
}

bool mentionsAny(const QString& text, const QStringList& words)
{
    for (const QString& w : words)
        if (text.contains(w, Qt::CaseInsensitive))
            return true;
    return false;
}

} // namespace lockscope::test
