// SPDX-License-Identifier: Apache-2.0
#include "audit/teamauditlog.h"
#include "audit/teamdatabaseurl.h"
#include "config/configloader.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_teamdatabaseurl {

using namespace lockscope;
using namespace lockscope::test;

// The team database's URL (issue #45): what is accepted, what is refused and why, and that neither
// a refusal nor the URL shown ever carries a password.
class TestTeamDatabaseUrl : public QObject
{
    Q_OBJECT

private slots:
    void accepted_data();
    void accepted();
    void refused_data();
    void refused();
    void configurationFileAndPasswordVariable();
    void chainHashCoversThePreviousRowAndTheRecord();
};

void TestTeamDatabaseUrl::accepted_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("shown");
    QTest::addColumn<QString>("options");
    QTest::newRow("plain") << QStringLiteral("postgresql://ops@db.example/lockscope")
                           << QStringLiteral("postgresql://ops@db.example/lockscope")
                           << QStringLiteral("connect_timeout=5;application_name=lockscope");
    QTest::newRow("postgres scheme, port, TLS")
        << QStringLiteral("postgres://ops@10.0.0.5:6432/team?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        << QStringLiteral("postgresql://ops@10.0.0.5:6432/team?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        << QStringLiteral(
               "connect_timeout=5;application_name=lockscope;sslmode=verify-full;sslrootcert=/etc/ca.pem");
    QTest::newRow("timeout") << QStringLiteral("postgresql://ops@[::1]/t?connect_timeout=2")
                             << QStringLiteral("postgresql://ops@[::1]/t")
                             << QStringLiteral("connect_timeout=2;application_name=lockscope");
}

void TestTeamDatabaseUrl::accepted()
{
    QFETCH(QString, url);
    QFETCH(QString, shown);
    QFETCH(QString, options);
    const Result<TeamDatabaseUrl> parsed = TeamDatabaseUrl::parse(url);
    QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().message));
    QCOMPARE(parsed->toString(), shown);
    QCOMPARE(parsed->connectOptions(), options);
    QVERIFY(TeamDatabaseUrl::isPostgresUrl(url));
}

void TestTeamDatabaseUrl::refused_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("why");
    QTest::newRow("password") << QStringLiteral("postgresql://ops:Hunter2-secret@db/lockscope")
                              << QStringLiteral("holds a password");
    QTest::newRow("password parameter")
        << QStringLiteral("postgresql://ops@db/lockscope?password=Hunter2-secret")
        << QStringLiteral("holds a password");
    QTest::newRow("no user") << QStringLiteral("postgresql://db/lockscope") << QStringLiteral("no user");
    QTest::newRow("no database") << QStringLiteral("postgresql://ops@db") << QStringLiteral("no database");
    QTest::newRow("no host") << QStringLiteral("postgresql://ops@/lockscope") << QStringLiteral("no host");
    QTest::newRow("bad sslmode") << QStringLiteral("postgresql://ops@db/l?sslmode=maybe")
                                 << QStringLiteral("sslmode");
    // libpq's other keywords can run commands or read files (passfile, service): never passed on.
    QTest::newRow("other keyword") << QStringLiteral("postgresql://ops@db/l?passfile=/tmp/x")
                                   << QStringLiteral("unknown parameter `passfile`");
    QTest::newRow("option smuggled in a value")
        << QStringLiteral("postgresql://ops@db/l?sslrootcert=a%20sslmode%3Ddisable")
        << QStringLiteral("sslrootcert");
    QTest::newRow("another scheme") << QStringLiteral("mysql://ops@db/l")
                                    << QStringLiteral("expected postgresql://");
    QTest::newRow("timeout") << QStringLiteral("postgresql://ops@db/l?connect_timeout=0")
                             << QStringLiteral("connect_timeout");
}

void TestTeamDatabaseUrl::refused()
{
    QFETCH(QString, url);
    QFETCH(QString, why);
    const Result<TeamDatabaseUrl> parsed = TeamDatabaseUrl::parse(url);
    QVERIFY(!parsed);
    QCOMPARE(parsed.error().kind, ErrorKind::InvalidUrl);
    QVERIFY2(parsed.error().message.contains(why), qPrintable(parsed.error().message));
    QVERIFY(!parsed.error().message.contains(QLatin1String("Hunter2")));
}

void TestTeamDatabaseUrl::configurationFileAndPasswordVariable()
{
    qputenv("TST_TEAM_PW", "from-the-environment");
    QStringList warnings;
    const Result<LockScopeConfig> config = ConfigLoader::fromJson(
        R"({"masters": ["redis://127.0.0.1:1"], "teamDatabase": "postgresql://ops@db:6432/team",
            "teamDatabasePasswordEnv": "TST_TEAM_PW"})",
        &warnings);
    QVERIFY2(config, qPrintable(config ? QString() : config.error().message));
    QVERIFY(warnings.isEmpty());
    QVERIFY(config->teamDatabase);
    QCOMPARE(config->teamDatabase->toString(), QStringLiteral("postgresql://ops@db:6432/team"));
    QCOMPARE(config->teamDatabasePassword, QStringLiteral("from-the-environment"));
    // The variable goes with the other password variables: a child lockctl starts does not get it.
    QVERIFY(config->passwordEnvVars.contains(QStringLiteral("TST_TEAM_PW")));

    const Result<LockScopeConfig> unset = ConfigLoader::fromJson(
        R"({"masters": ["redis://127.0.0.1:1"], "teamDatabase": "postgresql://ops@db/team",
            "teamDatabasePasswordEnv": "TST_TEAM_PW_UNSET"})");
    QVERIFY(!unset);
    QVERIFY2(unset.error().message.contains(QLatin1String("TST_TEAM_PW_UNSET is not set")),
             qPrintable(unset.error().message));
    const Result<LockScopeConfig> secret = ConfigLoader::fromJson(
        R"({"masters": ["redis://127.0.0.1:1"], "teamDatabase": "postgresql://ops:Hunter2-secret@db/team"})");
    QVERIFY(!secret);
    QVERIFY2(secret.error().message.contains(QLatin1String("teamDatabase")) &&
                 !secret.error().message.contains(QLatin1String("Hunter2")),
             qPrintable(secret.error().message));
}

void TestTeamDatabaseUrl::chainHashCoversThePreviousRowAndTheRecord()
{
    // sha256 of "\n{\"action\":\"acquire\"}" as sha256sum prints it: the first row of a chain.
    const QByteArray first = TeamAuditLog::chainHash({}, R"({"action":"acquire"})");
    QCOMPARE(first, QByteArray("29264cdd7a893aaae6dc36b6d4133467d9a905d4946020d8a81460a84b70d203"));
    // The previous hash is part of it (always 64 hex digits or none, so the two parts never blur).
    QVERIFY(TeamAuditLog::chainHash(first, R"({"action":"acquire"})") != first);
    QVERIFY(TeamAuditLog::chainHash({}, R"({"action":"release"})") != first);
}

LOCKSCOPE_TEST_MAIN(TestTeamDatabaseUrl)

} // namespace tst_teamdatabaseurl

#include "tst_teamdatabaseurl.moc"
