// SPDX-License-Identifier: Apache-2.0
#include "support/lockctlrun.h"
#include "support/pgcluster.h"
#include "support/redisserver.h"
#include "support/testpaths.h"
#include "support/testregistry.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace tst_teamaudit {

using namespace lockscope;
using namespace lockscope::test;

// The team's audit trail in PostgreSQL (issue #45), against a cluster the test starts itself and
// the roles the shipped resources/sql/team-roles.sql makes: every lockctl write is recorded there as
// in the file, by a role that may add records but not change or remove them; `lockctl audit` reads
// them back and --verify notices one taken out or changed; no write reaches Redis while the
// database cannot record it; and no password shows anywhere.
class TestTeamAudit : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void writesAreRecordedInTheTeamDatabase();
    void theWriterMayAddRecordsButNeverChangeOrRemoveThem();
    void verifyNoticesARecordTakenOutOrChanged();
    void noWriteWhileTheTeamDatabaseCannotRecordIt();
    void aPasswordNeverShows();

private:
    // lockctl with this test's masters, audit log and team database (as the writer, unless `user`).
    LockctlRun lockctl(const QStringList& args, const QString& user = QStringLiteral("lockscope_writer"));
    QJsonArray audit(const QStringList& extra = {});

    PgCluster m_pg;
    RedisServer m_redis;
    QTemporaryDir m_dir;
    const QString m_ownerPassword = distinctTestPassword(QStringLiteral("pg-owner"));
    const QString m_writerPassword = distinctTestPassword(QStringLiteral("pg-writer"));
};

void TestTeamAudit::initTestCase()
{
    QVERIFY2(m_pg.start(), qPrintable(m_pg.errorString()));
    QVERIFY2(m_redis.start(), qPrintable(m_redis.errorString()));
    QFile roles(sourcePath(QStringLiteral("resources/sql/team-roles.sql")));
    QVERIFY(roles.open(QIODevice::ReadOnly));
    bool ok = false;
    m_pg.psql(QString::fromUtf8(roles.readAll()), PgCluster::adminUser(), {}, &ok);
    QVERIFY2(ok, qPrintable(m_pg.errorString()));
    m_pg.psql(
        QStringLiteral("ALTER ROLE lockscope_owner PASSWORD '%1'; ALTER ROLE lockscope_writer PASSWORD '%2'")
            .arg(m_ownerPassword, m_writerPassword),
        PgCluster::adminUser(), {}, &ok);
    QVERIFY2(ok, qPrintable(m_pg.errorString()));

    // The writer cannot make the schema: it says so, and whom to ask.
    const LockctlRun early = lockctl({QStringLiteral("audit")});
    QCOMPARE(early.code, 3);
    QVERIFY2(early.err.contains("cannot bring the schema to version 1 as lockscope_writer") &&
                 early.err.contains("owner"),
             qPrintable(early.describe()));
    // The owner's first connection makes it.
    const LockctlRun owner = lockctl({QStringLiteral("audit")}, QStringLiteral("lockscope_owner"));
    QVERIFY2(owner.code == 0 && owner.out.contains("No write was recorded."), qPrintable(owner.describe()));
}

LockctlRun TestTeamAudit::lockctl(const QStringList& args, const QString& user)
{
    QProcessEnvironment env = testPasswordEnvironment();
    env.insert(QStringLiteral("TEAM_PW"),
               user == QLatin1String("lockscope_owner") ? m_ownerPassword : m_writerPassword);
    env.insert(QStringLiteral("XDG_STATE_HOME"), m_dir.filePath(QStringLiteral("state")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
    env.remove(QStringLiteral("PGPASSWORD"));
    return runLockctl(testPasswordArgs() +
                          QStringList{QStringLiteral("-m"), m_redis.url(false), QStringLiteral("--team-db"),
                                      m_pg.url(user), QStringLiteral("--team-db-password-env"),
                                      QStringLiteral("TEAM_PW")} +
                          args,
                      60000, env);
}

QJsonArray TestTeamAudit::audit(const QStringList& extra)
{
    const LockctlRun run = lockctl(QStringList{QStringLiteral("--json"), QStringLiteral("audit")} + extra);
    if (run.code != 0)
        qWarning("%s", qPrintable(run.describe()));
    QJsonArray out;
    for (const QByteArray& line : run.out.split('\n'))
        if (!line.trimmed().isEmpty())
            out.append(QJsonDocument::fromJson(line).object());
    return out;
}

void TestTeamAudit::writesAreRecordedInTheTeamDatabase()
{
    const LockctlRun acquired = lockctl({QStringLiteral("acquire"), QStringLiteral("team:orders"),
                                         QStringLiteral("--ttl"), QStringLiteral("30000")});
    QVERIFY2(acquired.code == 0, qPrintable(acquired.describe()));
    const QByteArray token = acquired.out.split('\n').first().trimmed(); // then a sentence
    QVERIFY(!token.isEmpty());
    const LockctlRun released = lockctl({QStringLiteral("release"), QStringLiteral("team:orders"),
                                         QStringLiteral("--token"), QString::fromUtf8(token)});
    QVERIFY2(released.code == 0, qPrintable(released.describe()));
    // A lock someone else holds, force-released by its token.
    QCOMPARE(m_redis.command({"SET", "team:stuck", "their-token"}).string, QByteArray("OK"));
    const LockctlRun forced =
        lockctl({QStringLiteral("force-release"), QStringLiteral("team:stuck"),
                 QStringLiteral("--expect-token"), QStringLiteral("their-token"), QStringLiteral("--yes")});
    QVERIFY2(forced.code == 0, qPrintable(forced.describe()));

    const QJsonArray records = audit({QStringLiteral("--since"), QStringLiteral("1h")});
    QCOMPARE(records.size(), 3);
    QCOMPARE(records.at(0)[QStringLiteral("action")].toString(), QStringLiteral("acquire"));
    QCOMPARE(records.at(0)[QStringLiteral("resource")].toString(), QStringLiteral("team:orders"));
    QCOMPARE(records.at(0)[QStringLiteral("token")].toString(), QString::fromUtf8(token));
    QCOMPARE(records.at(1)[QStringLiteral("action")].toString(), QStringLiteral("release"));
    QCOMPARE(records.at(2)[QStringLiteral("action")].toString(), QStringLiteral("force-release"));
    QCOMPARE(records.at(2)[QStringLiteral("expectedToken")].toString(), QStringLiteral("their-token"));
    for (const QJsonValue& r : records) {
        QCOMPARE(r[QStringLiteral("outcome")].toString(), QStringLiteral("done"));
        QCOMPARE(r[QStringLiteral("program")].toString(), QStringLiteral("lockctl"));
        QVERIFY(r[QStringLiteral("writer")].toString().endsWith(QLatin1String("/lockctl")));
        QCOMPARE(r[QStringLiteral("masters")].toArray().size(), 1);
    }
    // The file has the same records, byte for byte as the database's JSON.
    QFile file(m_dir.filePath(QStringLiteral("state/lockscope/audit.jsonl")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    for (int i = 0; i < 3; ++i) {
        QJsonObject fromDb = records.at(i).toObject();
        fromDb.remove(QStringLiteral("writer"));
        QCOMPARE(QJsonDocument::fromJson(lines.at(i)).object(), fromDb);
    }
    // One lock's records, and the text form.
    QCOMPARE(audit({QStringLiteral("--resource"), QStringLiteral("team:stuck")}).size(), 1);
    const LockctlRun text =
        lockctl({QStringLiteral("audit"), QStringLiteral("--resource"), QStringLiteral("team:orders")});
    QVERIFY2(text.code == 0 && text.out.contains("acquire") && text.out.contains("release") &&
                 !text.out.contains("force-release"),
             qPrintable(text.describe()));
}

void TestTeamAudit::theWriterMayAddRecordsButNeverChangeOrRemoveThem()
{
    bool ok = true;
    m_pg.psql(QStringLiteral("UPDATE lockscope.audit SET outcome = 'not-done'"),
              QStringLiteral("lockscope_writer"), m_writerPassword, &ok);
    QVERIFY(!ok);
    QVERIFY2(m_pg.errorString().contains("permission denied"), qPrintable(m_pg.errorString()));
    m_pg.psql(QStringLiteral("DELETE FROM lockscope.audit"), QStringLiteral("lockscope_writer"),
              m_writerPassword, &ok);
    QVERIFY(!ok);
    QVERIFY2(m_pg.errorString().contains("permission denied"), qPrintable(m_pg.errorString()));
    m_pg.psql(QStringLiteral("TRUNCATE lockscope.audit"), QStringLiteral("lockscope_writer"),
              m_writerPassword, &ok);
    QVERIFY(!ok);
    const QByteArray count = m_pg.psql(QStringLiteral("SELECT count(*) FROM lockscope.audit"),
                                       QStringLiteral("lockscope_writer"), m_writerPassword, &ok);
    QVERIFY2(ok, qPrintable(m_pg.errorString()));
    QVERIFY(count.trimmed().toInt() >= 1);
}

void TestTeamAudit::verifyNoticesARecordTakenOutOrChanged()
{
    for (int i = 0; i < 3; ++i)
        QCOMPARE(lockctl({QStringLiteral("acquire"), QStringLiteral("team:verify:%1").arg(i),
                          QStringLiteral("--ttl"), QStringLiteral("5000")})
                     .code,
                 0);
    const LockctlRun whole = lockctl({QStringLiteral("audit"), QStringLiteral("--verify")});
    QVERIFY2(whole.code == 0 && whole.out.contains("every chain is whole"), qPrintable(whole.describe()));

    // A superuser takes one record out of the middle of the writer's chain...
    bool ok = false;
    m_pg.psql(QStringLiteral("DELETE FROM lockscope.audit WHERE resource = 'team:verify:1'::bytea"),
              PgCluster::adminUser(), {}, &ok);
    QVERIFY2(ok, qPrintable(m_pg.errorString()));
    const QByteArray after = m_pg.psql(QStringLiteral("SELECT id FROM lockscope.audit WHERE resource = "
                                                      "'team:verify:2'::bytea"),
                                       PgCluster::adminUser(), {}, &ok)
                                 .trimmed();
    const LockctlRun removed = lockctl({QStringLiteral("audit"), QStringLiteral("--verify")});
    QCOMPARE(removed.code, 1);
    QVERIFY2(removed.out.contains(QByteArray(QByteArray("a record is missing before record ") + after)),
             qPrintable(removed.describe()));

    // ...and changes another's outcome.
    m_pg.psql(
        QStringLiteral("UPDATE lockscope.audit SET record = replace(record, '\"done\"', '\"not-done\"') "
                       "WHERE resource = 'team:verify:0'::bytea"),
        PgCluster::adminUser(), {}, &ok);
    QVERIFY2(ok, qPrintable(m_pg.errorString()));
    const LockctlRun changed =
        lockctl({QStringLiteral("--json"), QStringLiteral("audit"), QStringLiteral("--verify")});
    QCOMPARE(changed.code, 1);
    const QJsonObject report = QJsonDocument::fromJson(changed.out).object();
    QCOMPARE(report[QStringLiteral("whole")].toBool(true), false);
    QCOMPARE(report[QStringLiteral("problems")].toArray().size(), 2);
    QVERIFY2(changed.out.contains("was changed after it was written"), qPrintable(changed.describe()));
}

void TestTeamAudit::noWriteWhileTheTeamDatabaseCannotRecordIt()
{
    QVERIFY(m_pg.stop());
    const LockctlRun refused = lockctl({QStringLiteral("acquire"), QStringLiteral("team:down"),
                                        QStringLiteral("--ttl"), QStringLiteral("30000")});
    QCOMPARE(refused.code, 2);
    QVERIFY2(refused.err.contains("team database postgresql://lockscope_writer@127.0.0.1") &&
                 refused.err.contains("cannot connect"),
             qPrintable(refused.describe()));
    QCOMPARE(m_redis.command({"EXISTS", "team:down"}).integer, 0LL);
    // Nothing in the file either: the write did not happen.
    QFile file(m_dir.filePath(QStringLiteral("state/lockscope/audit.jsonl")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains("team:down"));
    file.close();

    QVERIFY2(m_pg.restart(), qPrintable(m_pg.errorString()));
    const LockctlRun back = lockctl({QStringLiteral("acquire"), QStringLiteral("team:down"),
                                     QStringLiteral("--ttl"), QStringLiteral("30000")});
    QVERIFY2(back.code == 0, qPrintable(back.describe()));
    QCOMPARE(audit({QStringLiteral("--resource"), QStringLiteral("team:down")}).size(), 1);
}

void TestTeamAudit::aPasswordNeverShows()
{
    // In the URL: refused, and not repeated.
    const LockctlRun inUrl =
        runLockctl({QStringLiteral("--team-db"),
                    QStringLiteral("postgresql://lockscope_writer:%1@127.0.0.1:%2/lockscope")
                        .arg(m_writerPassword)
                        .arg(m_pg.port()),
                    QStringLiteral("audit")});
    QCOMPARE(inUrl.code, 2);
    QVERIFY2(inUrl.err.contains("holds a password"), qPrintable(inUrl.describe()));
    QVERIFY(!inUrl.err.contains(m_writerPassword.toUtf8()) && !inUrl.out.contains(m_writerPassword.toUtf8()));
    // A wrong one: the server's refusal, without it.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("WRONG_PW"), QStringLiteral("wrong-Secret-5e5e"));
    const LockctlRun wrong = runLockctl(
        {QStringLiteral("--team-db"), m_pg.url(QStringLiteral("lockscope_writer")),
         QStringLiteral("--team-db-password-env"), QStringLiteral("WRONG_PW"), QStringLiteral("audit")},
        30000, env);
    QCOMPARE(wrong.code, 3);
    QVERIFY2(wrong.err.contains("password authentication failed"), qPrintable(wrong.describe()));
    QVERIFY(!wrong.err.contains("wrong-Secret-5e5e") && !wrong.out.contains("wrong-Secret-5e5e"));
    // libpq's own PGPASSWORD works as for psql.
    env.insert(QStringLiteral("PGPASSWORD"), m_writerPassword);
    const LockctlRun pg =
        runLockctl({QStringLiteral("--team-db"), m_pg.url(QStringLiteral("lockscope_writer")),
                    QStringLiteral("audit"), QStringLiteral("--limit"), QStringLiteral("1")},
                   30000, env);
    QVERIFY2(pg.code == 0, qPrintable(pg.describe()));
    // Nor in any record.
    bool ok = false;
    const QByteArray all = m_pg.psql(QStringLiteral("SELECT string_agg(record, '') FROM lockscope.audit"),
                                     PgCluster::adminUser(), {}, &ok);
    QVERIFY(ok);
    QVERIFY(!all.contains(m_writerPassword.toUtf8()) && !all.contains(m_ownerPassword.toUtf8()));
}

LOCKSCOPE_TEST_MAIN(TestTeamAudit)

} // namespace tst_teamaudit

#include "tst_teamaudit.moc"
