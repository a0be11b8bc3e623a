// SPDX-License-Identifier: Apache-2.0
// A Lua WRONGTYPE means "not a lock of ours" however the server words it. Redis 7 passes the
// error through ("WRONGTYPE Operation against …"); Redis 6 wraps it ("ERR Error running script
// (call to f_…): @user_script:2: WRONGTYPE …"). Real masters, each behind a proxy that rewrites
// Redis 7's wording into Redis 6's, so both wordings meet the real scripts.
#include "locking/redlock.h"
#include "locking/redlockscripts.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "topology/masterset.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <memory>
#include <optional>

namespace tst_scriptwrongtype {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// Forwards one master's traffic and rewrites its WRONGTYPE error replies as Redis 6 words them.
class Redis6Wording final : public QObject
{
public:
    explicit Redis6Wording(quint16 upstream) : m_upstream(upstream)
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* client = m_server.nextPendingConnection()) {
                auto* server = new QTcpSocket(client);
                client->setSocketOption(QAbstractSocket::LowDelayOption, 1);
                server->setSocketOption(QAbstractSocket::LowDelayOption, 1);
                server->connectToHost(QHostAddress::LocalHost, m_upstream);
                connect(client, &QTcpSocket::readyRead, server,
                        [client, server] { server->write(client->readAll()); });
                connect(server, &QTcpSocket::readyRead, client, [this, client, server] {
                    QByteArray bytes = server->readAll();
                    const qsizetype before = bytes.count("-WRONGTYPE ");
                    bytes.replace(
                        "-WRONGTYPE ",
                        "-ERR Error running script (call to f_0123456789abcdef0123456789abcdef01234567): "
                        "@user_script:2: WRONGTYPE ");
                    m_rewritten += int(before);
                    client->write(bytes);
                });
                connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
            }
        });
    }
    quint16 port() const { return m_server.serverPort(); }
    int rewritten() const { return m_rewritten; }

private:
    QTcpServer m_server;
    quint16 m_upstream;
    int m_rewritten = 0;
};

} // namespace

class TestScriptWrongType : public QObject
{
    Q_OBJECT

private slots:
    void wordingsAreRecognised();
    void releaseOfARedissonHashIsNotOurs_data();
    void releaseOfARedissonHashIsNotOurs();
};

void TestScriptWrongType::wordingsAreRecognised()
{
    RedisReply redis7;
    redis7.type = RedisReply::Type::Error;
    redis7.string = "WRONGTYPE Operation against a key holding the wrong kind of value script: 1a2b, on "
                    "@user_script:2.";
    QVERIFY(RedlockScripts::isWrongType(redis7));
    RedisReply redis6 = redis7;
    redis6.string =
        "ERR Error running script (call to f_1a2b): @user_script:2: WRONGTYPE Operation against a "
        "key holding the wrong kind of value";
    QVERIFY(RedlockScripts::isWrongType(redis6));
    RedisReply other = redis7;
    other.string =
        "ERR Error running script (call to f_1a2b): @user_script:2: user_script:2: Script attempted "
        "to access a non local key";
    QVERIFY(!RedlockScripts::isWrongType(other));
}

void TestScriptWrongType::releaseOfARedissonHashIsNotOurs_data()
{
    QTest::addColumn<bool>("redis6");
    QTest::newRow("Redis 7 wording") << false;
    QTest::newRow("Redis 6 wording") << true;
}

void TestScriptWrongType::releaseOfARedissonHashIsNotOurs()
{
    QFETCH(bool, redis6);
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    LockScopeConfig config;
    config.masters = group.connectionOptions();
    std::vector<std::unique_ptr<Redis6Wording>> proxies;
    if (redis6) {
        for (int i = 0; i < group.size(); ++i) {
            proxies.push_back(std::make_unique<Redis6Wording>(group.at(i).port()));
            config.masters[i].url =
                *RedisUrl::parse(QStringLiteral("redis://127.0.0.1:%1").arg(proxies.back()->port()));
            // The proxy passes AUTH on to the server behind it.
            config.masters[i].url.setPassword(group.at(i).options().password);
        }
    }
    for (int i = 0; i < group.size(); ++i)
        group.at(i).command({"HSET", "job:redisson", "8e2f2a47-51a1-4c5f-9b0a-1f2d3c4b5a69:57", "1"});
    MasterSet masters(config.masters);
    masters.open();
    QVERIFY(QTest::qWaitFor([&] { return masters.upCount() == masters.size(); },
                            int(lockscope::test::upperBoundMs(5000))));
    config.redlock.masterTimeoutMs = 2000; // the proxy's hop must not be what is judged
    Redlock redlock(&masters, config);
    redlock.setWaitForAllMasters(true);
    RedlockLease lease;
    lease.resource = "job:redisson";
    lease.token = "ours/0123456789abcdef0123456789abcdef";
    std::optional<RedlockOutcome> outcome;
    redlock.release(lease, [&](const RedlockOutcome& o) { outcome = o; });
    QVERIFY(QTest::qWaitFor([&] { return outcome.has_value(); }, int(lockscope::test::upperBoundMs(5000))));
    for (const auto& proxy : proxies)
        QCOMPARE(proxy->rewritten(), 1);
    // Every master answered: the key is somebody else's lock, not an outage.
    QCOMPARE(outcome->verdict, WriteVerdict::NotDone);
    QCOMPARE(outcome->answered, 3);
    for (const MasterVote& vote : outcome->votes)
        QCOMPARE(vote.answer, MasterVote::Answer::No);
    for (int i = 0; i < group.size(); ++i)
        QCOMPARE(group.at(i).command({"EXISTS", "job:redisson"}).integer, 1);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestScriptWrongType)

} // namespace tst_scriptwrongtype

#include "tst_scriptwrongtype.moc"
