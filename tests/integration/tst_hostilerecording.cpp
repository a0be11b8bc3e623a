// SPDX-License-Identifier: Apache-2.0
#include "record/recordingdatabase.h"
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace tst_hostilerecording {

using namespace lockscope;
using namespace lockscope::test;

// A recording is a file that may come from elsewhere (issue #39): `lockctl history` on a crafted or
// damaged one ends with a clear error or a best-effort reading, never a crash or a hang; a read
// never changes the file (a chmod 444 evidence copy, an older schema); and `lockctl record` keeps to
// the audit log's rules (no symbolic link, no file others can read or write unless allowed).
class TestHostileRecording : public QObject
{
    Q_OBJECT

private slots:
    void craftedRecordingIsRefusedOrReadNeverCrashes_data();
    void craftedRecordingIsRefusedOrReadNeverCrashes();
    void readOnlyEvidenceCopyIsReadAndLeftAsItWas();
    void olderRecordingIsReadWithoutBeingUpgraded();
    void recordRefusesASymlinkOrASharedFile();
    void aUrlIsNeverTakenForAFileName();

private:
    // A recording of the current schema with one released episode of `orders` (tokens "tok").
    static bool makeRecording(const QString& path, int version = RecordingDatabase::schemaVersion);
    // Runs `statements` on `path` through a plain SQLite connection, as anyone crafting a file would.
    static bool craft(const QString& path, const QStringList& statements);
    static QByteArray sha256(const QString& path);
    static LockctlRun history(const QString& path);
};

bool TestHostileRecording::makeRecording(const QString& path, int version)
{
    {
        RecordingDatabase db;
        if (db.open(path, false, version))
            return false;
    }
    QStringList insert{
        QStringLiteral("INSERT INTO sessions(id, started, last, masters) VALUES(1, 1000, 5000, "
                       "'[\"redis://127.0.0.1:6379\"]')"),
        QStringLiteral("INSERT INTO resources(id, name) VALUES(1, CAST('orders' AS BLOB))"),
        version >= 5
            ? QStringLiteral("INSERT INTO events(id, session, t, resource, kind, token, holding, holders, "
                             "prev) VALUES(1, 1, 2000, 1, 2, 'tok', 1, 1, NULL), (2, 1, 3000, 1, 4, "
                             "'tok', 0, 0, 1)")
            : QStringLiteral("INSERT INTO events(id, session, t, resource, kind, token, holding, holders) "
                             "VALUES(1, 1, 2000, 1, 2, 'tok', 1, 1), (2, 1, 3000, 1, 4, 'tok', 0, 0)")};
    if (version >= 5)
        insert << QStringLiteral("UPDATE resources SET last = 2");
    // Checkpointed and out of WAL mode: a file as a copy of it would be, with no -wal or -shm.
    insert << QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)");
    return craft(path, insert);
}

bool TestHostileRecording::craft(const QString& path, const QStringList& statements)
{
    const QString name = QStringLiteral("craft-%1").arg(quintptr(&path));
    bool ok = true;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        ok = db.open();
        for (const QString& sql : statements) {
            QSqlQuery q(db);
            if (ok && !q.exec(sql)) {
                qWarning("%s: %s", qPrintable(sql), qPrintable(q.lastError().text()));
                ok = false;
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

QByteArray TestHostileRecording::sha256(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
}

LockctlRun TestHostileRecording::history(const QString& path)
{
    // 20 s: a hang is a failure, not a test that waits for ctest's timeout.
    return runLockctl({QStringLiteral("history"), QStringLiteral("orders"), QStringLiteral("--db"), path},
                      20000);
}

void TestHostileRecording::craftedRecordingIsRefusedOrReadNeverCrashes_data()
{
    QTest::addColumn<QStringList>("statements");
    QTest::addColumn<int>("code");
    QTest::addColumn<QByteArray>("said");
    // The migration used to index its steps at -1 (a segmentation fault).
    QTest::newRow("negative version") << QStringList{QStringLiteral("PRAGMA user_version = -1")} << 1
                                      << QByteArray("schema version -1 is not one LockScope wrote");
    QTest::newRow("version beyond the known")
        << QStringList{QStringLiteral("PRAGMA user_version = %1").arg(RecordingDatabase::schemaVersion + 1)}
        << 1 << QByteArray("written by a newer LockScope");
    QTest::newRow("huge version") << QStringList{QStringLiteral("PRAGMA user_version = 2147483647")} << 1
                                  << QByteArray("schema version 2147483647 is not one LockScope wrote");
    // An open episode and no session used to take the last of no sessions (a segmentation
    // fault): the events are still read, up to the last of them.
    QTest::newRow("events without sessions") << QStringList{QStringLiteral("DELETE FROM sessions"),
                                                            QStringLiteral("DELETE FROM events WHERE id = 2"),
                                                            QStringLiteral("UPDATE events SET session = -1")}
                                             << 0 << QByteArray("(now)");
    // A recursive view in the sessions' place used to make history run forever.
    QTest::newRow("recursive view for sessions")
        << QStringList{QStringLiteral("DROP TABLE sessions"),
                       QStringLiteral(
                           "CREATE VIEW sessions(id, started, last, ended, masters) AS WITH RECURSIVE "
                           "n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i, 0, 0, NULL, "
                           "'[]' FROM n")}
        << 1 << QByteArray("it has a view (sessions)");
    QTest::newRow("trigger") << QStringList{QStringLiteral("CREATE TRIGGER t AFTER INSERT ON sessions BEGIN "
                                                           "DELETE FROM events; END")}
                             << 1 << QByteArray("it has a trigger (t)");
    QTest::newRow("table missing") << QStringList{QStringLiteral("DROP TABLE heads_saved")} << 1
                                   << QByteArray("has a table `heads_saved`; this file has none");
    QTest::newRow("column missing") << QStringList{QStringLiteral("ALTER TABLE events DROP COLUMN prev")} << 1
                                    << QByteArray("`events.prev`");
    // A chain that points forward, at itself or at another resource is never followed.
    QTest::newRow("looping chain") << QStringList{QStringLiteral("UPDATE events SET prev = 2"),
                                                  QStringLiteral("UPDATE resources SET last = 1")}
                                   << 0 << QByteArray("orders: 0 episode(s), 1 event(s)");
    QTest::newRow("values of the wrong kinds")
        << QStringList{QStringLiteral("UPDATE events SET kind = 999999, token = NULL, t = 'x', holders = -1"),
                       QStringLiteral("UPDATE sessions SET masters = 'not json', started = 'x'")}
        << 0 << QByteArray("orders: 0 episode(s), 0 event(s)"); // kinds it does not know are skipped
    QTest::newRow("huge values") << QStringList{QStringLiteral("UPDATE events SET token = zeroblob(2000000)")}
                                 << 1 << QByteArray("too big");
}

void TestHostileRecording::craftedRecordingIsRefusedOrReadNeverCrashes()
{
    QFETCH(QStringList, statements);
    QFETCH(int, code);
    QFETCH(QByteArray, said);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("crafted.sqlite"));
    QVERIFY(makeRecording(path));
    QVERIFY(craft(path, statements));
    const QByteArray before = sha256(path);
    const LockctlRun run = history(path);
    QCOMPARE(run.code, code); // -1: it crashed or hung
    QVERIFY2((code == 0 ? run.out : run.err).contains(said), qPrintable(run.describe()));
    if (code != 0)
        QVERIFY2(run.err.contains(path.toUtf8()), qPrintable(run.describe())); // the error names the file
    QCOMPARE(sha256(path), before);
}

void TestHostileRecording::readOnlyEvidenceCopyIsReadAndLeftAsItWas()
{
    QTemporaryDir dir;
    const QString evidence = dir.filePath(QStringLiteral("evidence"));
    QVERIFY(QDir().mkpath(evidence));
    const QString path = evidence + QStringLiteral("/recording.sqlite");
    QVERIFY(makeRecording(path));
    const QByteArray before = sha256(path);
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther)); // 0444
    QVERIFY(QFile::setPermissions(evidence, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup |
                                                QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther));
    const LockctlRun run = history(path);
    // Restored first, so that the directory can go whatever the result.
    QFile::setPermissions(evidence, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QCOMPARE(run.code, 0);
    QVERIFY2(run.out.contains("released"), qPrintable(run.describe()));
    // Root ignores the modes, so the file's bytes say whether it was written, and nothing was made
    // next to it (no -wal or -shm).
    QCOMPARE(sha256(path), before);
    QCOMPARE(QDir(evidence).entryList(QDir::Files), QStringList{QStringLiteral("recording.sqlite")});
}

void TestHostileRecording::olderRecordingIsReadWithoutBeingUpgraded()
{
    QTemporaryDir dir;
    for (int version = 1; version < RecordingDatabase::schemaVersion; ++version) {
        const QString path = dir.filePath(QStringLiteral("v%1.sqlite").arg(version));
        QVERIFY(makeRecording(path, version));
        const QByteArray before = sha256(path);
        const LockctlRun run = history(path);
        QVERIFY2(run.code == 0 && run.out.contains("released"),
                 qPrintable(QStringLiteral("version %1: %2").arg(version).arg(run.describe())));
        QCOMPARE(sha256(path), before);
        RecordingDatabase file;
        QVERIFY(!file.openForReading(path));
        QCOMPARE(file.fileVersion(), version);
    }
}

void TestHostileRecording::aUrlIsNeverTakenForAFileName()
{
    // `--db postgresql://user@host/db` made a folder `postgresql:` in the working directory with a
    // SQLite file in it (issue #45). A URL is refused, saying why, and the password in it is not
    // repeated; nothing is written anywhere.
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    QTemporaryDir dir;
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    const auto back = qScopeGuard([&] { QDir::setCurrent(before); });
    const QString secret = QStringLiteral("s3cret-in-url");
    for (const QString& url :
         {QStringLiteral("postgresql://ops:%1@db.example/locks").arg(secret),
          QStringLiteral("postgres://ops:%1@db.example/locks?sslmode=require").arg(secret),
          QStringLiteral("mysql://ops:%1@db.example/locks").arg(secret)}) {
        const QString scheme = url.section(QLatin1Char(':'), 0, 0);
        for (const QStringList& command :
             {group.lockctlArgs() << QStringLiteral("record") << QStringLiteral("--db") << url,
              QStringList{QStringLiteral("history"), QStringLiteral("orders"), QStringLiteral("--db"), url},
              QStringList{QStringLiteral("stats"), QStringLiteral("--db"), url},
              QStringList{QStringLiteral("incidents"), QStringLiteral("--db"), url}}) {
            const LockctlRun run = runLockctl(command);
            // A PostgreSQL URL is a team database (tst_pgrecording): refused for the password in it.
            const QByteArray why =
                scheme.startsWith(QLatin1String("postgres"))
                    ? QByteArray("it holds a password")
                    : QStringLiteral("a %1:// URL is not a recording").arg(scheme).toUtf8();
            QVERIFY2(run.code != 0 && run.err.contains(why), qPrintable(run.describe()));
            QVERIFY2(!run.err.contains(secret.toUtf8()) && !run.out.contains(secret.toUtf8()),
                     qPrintable(run.describe()));
        }
    }
    // One without a password, where no server listens: it says so, and still nothing is written.
    const LockctlRun unreachable =
        runLockctl({QStringLiteral("history"), QStringLiteral("orders"), QStringLiteral("--db"),
                    QStringLiteral("postgresql://ops@127.0.0.1:1/locks")});
    QVERIFY2(unreachable.code != 0 &&
                 unreachable.err.contains("postgresql://ops@127.0.0.1:1/locks: cannot connect"),
             qPrintable(unreachable.describe()));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList());
}

void TestHostileRecording::recordRefusesASymlinkOrASharedFile()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    const QStringList masters = group.lockctlArgs();
    QTemporaryDir dir;

    // A symbolic link planted where the recording goes: refused, its target untouched.
    const QString target = dir.filePath(QStringLiteral("elsewhere.sqlite"));
    QVERIFY(makeRecording(target));
    QVERIFY(::chmod(QFile::encodeName(target).constData(), 0600) == 0);
    const QByteArray targetBefore = sha256(target);
    const QString link = dir.filePath(QStringLiteral("link.sqlite"));
    QVERIFY(QFile::link(target, link));
    LockctlRun run =
        runLockctl(masters + QStringList{QStringLiteral("record"), QStringLiteral("--db"), link});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains("is a symbolic link; refusing to follow it"), qPrintable(run.describe()));
    QCOMPARE(sha256(target), targetBefore);

    // A crafted default recording used to crash `record` (and so crash-loop it under systemd).
    const QString crafted = dir.filePath(QStringLiteral("crafted.sqlite"));
    QVERIFY(makeRecording(crafted));
    QVERIFY(craft(crafted, {QStringLiteral("PRAGMA user_version = -1")}));
    QVERIFY(::chmod(QFile::encodeName(crafted).constData(), 0600) == 0);
    run = runLockctl(masters + QStringList{QStringLiteral("record"), QStringLiteral("--db"), crafted});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains("schema version -1 is not one LockScope wrote"), qPrintable(run.describe()));

    // A recording group and others can write: refused, saying how to allow it.
    const QString shared = dir.filePath(QStringLiteral("shared.sqlite"));
    QVERIFY(makeRecording(shared));
    QVERIFY(::chmod(QFile::encodeName(shared).constData(), 0666) == 0);
    run = runLockctl(masters + QStringList{QStringLiteral("record"), QStringLiteral("--db"), shared});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains("readable or writable by group and others (mode 0666)") &&
                 run.err.contains("--allow-shared-recording"),
             qPrintable(run.describe()));

    // ...unless the user said so.
    LockctlProcess allowed;
    QVERIFY(allowed.start(masters + QStringList{QStringLiteral("record"), QStringLiteral("--db"), shared,
                                                QStringLiteral("--allow-shared-recording")}));
    QVERIFY2(allowed.waitForOutput("recording 1 master(s)"), qPrintable(allowed.describe()));
    QCOMPARE(allowed.terminate(), 0);

    // Missing directories are made private.
    const QString deep = dir.filePath(QStringLiteral("a/b/recording.sqlite"));
    LockctlProcess fresh;
    QVERIFY(fresh.start(masters + QStringList{QStringLiteral("record"), QStringLiteral("--db"), deep}));
    QVERIFY2(fresh.waitForOutput("recording 1 master(s)"), qPrintable(fresh.describe()));
    QCOMPARE(fresh.terminate(), 0);
    for (const QString& made : {dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("a/b"))}) {
        struct stat info = {};
        QVERIFY(::stat(QFile::encodeName(made).constData(), &info) == 0);
        QCOMPARE(info.st_mode & 0777, mode_t(0700));
    }
}

LOCKSCOPE_TEST_MAIN(TestHostileRecording)

} // namespace tst_hostilerecording

#include "tst_hostilerecording.moc"
