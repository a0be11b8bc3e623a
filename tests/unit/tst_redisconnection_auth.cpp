// SPDX-License-Identifier: Apache-2.0
// How RedisConnection authenticates (issue 14), against a ScriptedTransport: which AUTH it sends for
// each shape of credentials, and that a named user never ends up as `default`.
#include "connection/redisconnection.h"
#include "support/scriptedtransport.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_redisconnection_auth {

using namespace lockscope;
using namespace lockscope::test;

namespace {

using State = RedisConnection::State;

struct Fixture
{
    ScriptedTransport* transport = nullptr;
    std::unique_ptr<RedisConnection> connection;

    // `authReply`: what the server answers to AUTH (the rest of the handshake is a healthy master's).
    Fixture(const QString& url, const QByteArray& authReply, const QString& password = QString())
    {
        ConnectionOptions options;
        options.url = *RedisUrl::parse(url);
        if (!password.isEmpty())
            options.url.setPassword(password);
        options.healthIntervalMs = 0;
        options.autoReconnect = false;
        auto owned = std::make_unique<ScriptedTransport>();
        transport = owned.get();
        transport->setResponder([authReply](const QByteArrayList& argv) -> std::optional<QByteArray> {
            if (argv.value(0) == "AUTH")
                return authReply;
            return ScriptedTransport::handshakeReply(argv);
        });
        connection = std::make_unique<RedisConnection>(options, std::move(owned));
        connection->open();
    }

    bool settles()
    {
        return QTest::qWaitFor(
            [this] { return connection->state() == State::Up || connection->state() == State::Down; },
            int(lockscope::test::upperBoundMs(5000)));
    }

    QList<QByteArrayList> auths() const
    {
        QList<QByteArrayList> out;
        for (const QByteArrayList& argv : transport->commands())
            if (argv.value(0) == "AUTH")
                out << argv;
        return out;
    }
};

} // namespace

class TestRedisConnectionAuth : public QObject
{
    Q_OBJECT

private slots:
    void authCommandFor_data();
    void authCommandFor();
    void namedUserFailsOnAnyAuthError_data();
    void namedUserFailsOnAnyAuthError();
    void passwordOnlyToleratesServerWithoutPassword();
};

void TestRedisConnectionAuth::authCommandFor_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("passwordFromElsewhere");
    QTest::addColumn<QByteArrayList>("auth"); // empty: no AUTH at all
    QTest::newRow("no credentials") << "redis://h:1"
                                    << "" << QByteArrayList{};
    QTest::newRow("password only") << "redis://:pw@h:1"
                                   << "" << QByteArrayList{"AUTH", "pw"};
    QTest::newRow("user and password") << "redis://alice:pw@h:1"
                                       << "" << QByteArrayList{"AUTH", "alice", "pw"};
    QTest::newRow("user, nopass") << "redis://bob@h:1"
                                  << "" << QByteArrayList{"AUTH", "bob", ""};
    QTest::newRow("user, password from the environment")
        << "redis://alice@h:1"
        << "from-env" << QByteArrayList{"AUTH", "alice", "from-env"};
    QTest::newRow("reserved characters") << "redis://al%40ce:%3F%23%40%2F%25%3A@h:1"
                                         << "" << QByteArrayList{"AUTH", "al@ce", "?#@/%:"};
}

void TestRedisConnectionAuth::authCommandFor()
{
    QFETCH(QString, url);
    QFETCH(QString, passwordFromElsewhere);
    QFETCH(QByteArrayList, auth);
    Fixture f(url, "+OK\r\n", passwordFromElsewhere);
    QVERIFY(f.settles());
    QCOMPARE(f.connection->state(), State::Up);
    QCOMPARE(f.auths(), auth.isEmpty() ? QList<QByteArrayList>{} : QList<QByteArrayList>{auth});
}

void TestRedisConnectionAuth::namedUserFailsOnAnyAuthError_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::newRow("wrong password") << QByteArray("-WRONGPASS invalid username-password pair\r\n");
    // A server before Redis 6 knows no users: not an auth error by its code, still no `default`.
    QTest::newRow("server before 6") << QByteArray("-ERR wrong number of arguments for 'auth' command\r\n");
    QTest::newRow("no password configured")
        << QByteArray("-ERR AUTH <password> called without any password configured for the default user\r\n");
}

void TestRedisConnectionAuth::namedUserFailsOnAnyAuthError()
{
    QFETCH(QByteArray, reply);
    Fixture f(QStringLiteral("redis://alice@h:1"), reply, QStringLiteral("Zq9-secret"));
    QVERIFY(f.settles());
    QCOMPARE(f.connection->state(), State::Down);
    QCOMPARE(f.connection->lastError().kind, ErrorKind::AuthFailed);
    QVERIFY(!f.connection->lastError().toString().contains(QLatin1String("Zq9-secret")));
}

// Unchanged: `redis://:pw@host` against a server with no password keeps working, as `default`.
void TestRedisConnectionAuth::passwordOnlyToleratesServerWithoutPassword()
{
    Fixture f(QStringLiteral("redis://:pw@h:1"),
              "-ERR AUTH <password> called without any password configured for the default user\r\n");
    QVERIFY(f.settles());
    QCOMPARE(f.connection->state(), State::Up);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestRedisConnectionAuth)

} // namespace tst_redisconnection_auth

#include "tst_redisconnection_auth.moc"
