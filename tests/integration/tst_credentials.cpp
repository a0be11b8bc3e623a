// SPDX-License-Identifier: Apache-2.0
// Credentials go where they belong (issue 14): a URL's user is who we authenticate as, also without
// a password in the URL, against real redis-server ACL users with `default` switched off; passwords
// with URL-reserved characters; and what lockctl does with them (errors, warnings, hold's child).
#include "connection/redisconnection.h"
#include "support/connectionwait.h"
#include "support/lockctlrun.h"
#include "support/redisserver.h"
#include "support/testregistry.h"

#include <QDeadlineTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

namespace tst_credentials {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// A password with every character that means something in a URL.
const QString alicePassword = distinctTestPassword(QStringLiteral("p?w#d@x/y%z:1"));
const QString lockctlPasswordVar = QStringLiteral("LOCKSCOPE_TEST_CREDENTIALS_PW");

ConnectionOptions optionsFor(const QString& url)
{
    ConnectionOptions options;
    const Result<RedisUrl> parsed = RedisUrl::parse(url);
    if (!parsed)
        qFatal("bad test URL: %s", qPrintable(parsed.error().message));
    options.url = *parsed;
    options.autoReconnect = false;
    options.healthIntervalMs = 0;
    return options;
}

QString encoded(const QString& text)
{
    return QString::fromUtf8(QUrl::toPercentEncoding(text));
}

} // namespace

class TestCredentials : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void aclUserWithReservedCharacters();
    void userWithoutPasswordIsNopassUser();
    void userWithPasswordFromElsewhere();
    void userWithoutPasswordNeverFallsBackToDefault();
    void lockctlUserWithPasswordEnv();
    void lockctlUrlErrorHidesUserInfo();
    void lockctlWarnsAboutPasswordInUrl();
    void holdChildDoesNotInheritPasswordVariable();

private:
    // alice (a password with ? # @ / % :), bob (nopass); `default` is off.
    std::unique_ptr<RedisServer> m_server;
    QString m_address;
};

void TestCredentials::initTestCase()
{
    RedisServerOptions o;
    o.aclUser = QStringLiteral("alice");
    o.aclPassword = alicePassword;
    m_server = std::make_unique<RedisServer>(o);
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    m_address = QStringLiteral("127.0.0.1:%1").arg(m_server->port());
    QCOMPARE(m_server->command({"ACL", "SETUSER", "bob", "on", "nopass", "~*", "&*", "+@all"}).string,
             QByteArray("OK"));
    // Last: the fixture's own commands run as `default`.
    QCOMPARE(m_server->command({"ACL", "SETUSER", "default", "off"}).string, QByteArray("OK"));
}

void TestCredentials::aclUserWithReservedCharacters()
{
    RedisConnection c(
        optionsFor(QStringLiteral("redis://alice:%1@%2").arg(encoded(alicePassword), m_address)));
    c.open();
    const RedisResult who = callAndWait(c, {"ACL", "WHOAMI"});
    QVERIFY2(who.ok(), qPrintable(who.error.toString()));
    QCOMPARE(who.reply.string, QByteArray("alice"));
}

// `redis://bob@host` for a nopass ACL user: AUTH bob "" (any password opens a nopass user).
void TestCredentials::userWithoutPasswordIsNopassUser()
{
    RedisConnection c(optionsFor(QStringLiteral("redis://bob@%1").arg(m_address)));
    c.open();
    const RedisResult who = callAndWait(c, {"ACL", "WHOAMI"});
    QVERIFY2(who.ok(), qPrintable(who.error.toString()));
    QCOMPARE(who.reply.string, QByteArray("bob"));
}

// The user from the URL, the password from the keychain or --password-env (setPassword).
void TestCredentials::userWithPasswordFromElsewhere()
{
    ConnectionOptions options = optionsFor(QStringLiteral("redis://alice@%1").arg(m_address));
    options.url.setPassword(alicePassword);
    RedisConnection c(options);
    c.open();
    const RedisResult who = callAndWait(c, {"ACL", "WHOAMI"});
    QVERIFY2(who.ok(), qPrintable(who.error.toString()));
    QCOMPARE(who.reply.string, QByteArray("alice"));
}

// A server whose `default` is open (nopass): `redis://alice@host` without alice's password must
// fail, not quietly run as `default`.
void TestCredentials::userWithoutPasswordNeverFallsBackToDefault()
{
    RedisServerOptions o;
    o.aclUser = QStringLiteral("alice");
    o.aclPassword = alicePassword;
    o.withoutPassword = true; // what the test is about: `default` takes no password
    RedisServer open(o);
    QVERIFY2(open.start(), qPrintable(open.errorString()));
    RedisConnection c(optionsFor(QStringLiteral("redis://alice@127.0.0.1:%1").arg(open.port())));
    c.open();
    QVERIFY(waitForState(c, RedisConnection::State::Down));
    QCOMPARE(c.lastError().kind, ErrorKind::AuthFailed);
    const RedisResult who = callAndWait(c, {"ACL", "WHOAMI"});
    QVERIFY2(!who.ok(), qPrintable(QString::fromUtf8(who.reply.string)));
}

void TestCredentials::lockctlUserWithPasswordEnv()
{
    qputenv(lockctlPasswordVar.toLocal8Bit().constData(), alicePassword.toUtf8());
    int code = -1;
    const QJsonObject out =
        runLockctlJson({QStringLiteral("--password-env"), lockctlPasswordVar, QStringLiteral("-m"),
                        QStringLiteral("redis://alice@%1").arg(m_address), QStringLiteral("list")},
                       &code);
    qunsetenv(lockctlPasswordVar.toLocal8Bit().constData());
    QVERIFY2(code == 0, qPrintable(QString::number(code)));
    QVERIFY(!out.isEmpty());
}

// The reviewer's case: a raw '?' in the password. It is a password, and when the rest of the URL is
// wrong, the error names that part and none of the user-info.
void TestCredentials::lockctlUrlErrorHidesUserInfo()
{
    const LockctlRun bad = runLockctl({QStringLiteral("list"), QStringLiteral("-m"),
                                       QStringLiteral("redis://alice:hunter2?x@127.0.0.1:bad")});
    QVERIFY2(bad.code != 0, qPrintable(bad.describe()));
    QVERIFY2(bad.err.contains("bad port 'bad'"), qPrintable(bad.describe()));
    QVERIFY2(!bad.err.contains("hunter2") && !bad.out.contains("hunter2"), qPrintable(bad.describe()));

    // The same shape, well-formed, with alice's real password typed raw: it connects as alice.
    const QString raw = QString(alicePassword).replace(QLatin1Char('%'), QLatin1String("%25"));
    const LockctlRun good = runLockctl({QStringLiteral("list"), QStringLiteral("-m"),
                                        QStringLiteral("redis://alice:%1@%2").arg(raw, m_address)});
    QVERIFY2(good.code == 0, qPrintable(good.describe()));
}

void TestCredentials::lockctlWarnsAboutPasswordInUrl()
{
    const LockctlRun withPassword =
        runLockctl({QStringLiteral("list"), QStringLiteral("-m"),
                    QStringLiteral("redis://alice:%1@%2").arg(encoded(alicePassword), m_address)});
    QVERIFY2(withPassword.code == 0, qPrintable(withPassword.describe()));
    QList<QByteArray> warnings;
    for (const QByteArray& line : withPassword.err.split('\n'))
        if (line.contains("process list"))
            warnings << line;
    QVERIFY2(warnings.size() == 1, qPrintable(withPassword.describe()));
    QVERIFY(warnings.front().startsWith("lockctl: warning: "));

    qputenv(lockctlPasswordVar.toLocal8Bit().constData(), alicePassword.toUtf8());
    const LockctlRun fromEnv =
        runLockctl({QStringLiteral("--password-env"), lockctlPasswordVar, QStringLiteral("-m"),
                    QStringLiteral("redis://alice@%1").arg(m_address), QStringLiteral("list")});
    qunsetenv(lockctlPasswordVar.toLocal8Bit().constData());
    QVERIFY2(fromEnv.code == 0, qPrintable(fromEnv.describe()));
    QVERIFY2(!fromEnv.err.contains("process list"), qPrintable(fromEnv.describe()));
}

void TestCredentials::holdChildDoesNotInheritPasswordVariable()
{
    QTemporaryDir dir;
    qputenv(lockctlPasswordVar.toLocal8Bit().constData(), alicePassword.toUtf8());
    const LockctlRun r = runLockctl(
        {QStringLiteral("--password-env"), lockctlPasswordVar, QStringLiteral("-m"),
         QStringLiteral("redis://alice@%1").arg(m_address), QStringLiteral("--audit-log"),
         dir.filePath(QStringLiteral("audit.jsonl")), QStringLiteral("hold"), QStringLiteral("env-check"),
         QStringLiteral("--ttl"), QStringLiteral("5000"), QStringLiteral("--"), QStringLiteral("env")});
    qunsetenv(lockctlPasswordVar.toLocal8Bit().constData());
    QVERIFY2(r.code == 0, qPrintable(r.describe()));
    QVERIFY2(r.out.contains("LOCKSCOPE_TOKEN="), qPrintable(r.describe())); // the child did run
    QVERIFY2(!r.out.contains(lockctlPasswordVar.toUtf8()), qPrintable(r.describe()));
    QVERIFY2(!r.out.contains(alicePassword.toUtf8()), qPrintable(r.describe()));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestCredentials)

} // namespace tst_credentials

#include "tst_credentials.moc"
