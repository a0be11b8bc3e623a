// SPDX-License-Identifier: Apache-2.0
#include "audit/teamdatabase.h"
#include "base/bytesdisplay.h"
#include "monitor/lockmonitor.h"
#include "record/historyjson.h"
#include "record/postgresrecordingwriter.h"
#include "record/recorder.h"
#include "record/recordingreader.h"
#include "record/recordingwriter.h"
#include "record/sqlrowtext.h"
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/monitorharness.h"
#include "support/pgcluster.h"
#include "support/redisservergroup.h"
#include "support/teamcluster.h"
#include "support/teerecordingsink.h"
#include "support/testpaths.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

namespace tst_pgrecording {

using namespace lockscope;
using namespace lockscope::test;

// Recordings in a team's PostgreSQL database (issue #45), on a cluster the test starts with the
// roles of the shipped team-roles.sql: one recording written into a SQLite file and into the
// database at once reads back the same through every reader (history, the event stream, stats,
// incidents); a database restarted mid-session loses nothing; `lockctl record --db postgresql://`
// and the readers work end to end without a password ever showing.
class TestPgRecording : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void oneRecordingReadsTheSameFromBothStores();
    void aCopiedRecordingReadsTheSameAndCopiesOnce();
    void aDatabaseRestartedMidSessionLosesNothing();
    void literalsReadBackAsWritten();
    void twoWritersShareOneHistory();
    void lockctlRecordsIntoTheTeamDatabase();

private:
    // A cluster with the roles of team-roles.sql and its schema made by the owner.
    bool startTeamCluster(PgCluster& pg);
    QString writerUrl() const { return m_pg.url(QStringLiteral("lockscope_writer")); }
    QProcessEnvironment environment() const;

    PgCluster m_pg;
    QTemporaryDir m_dir;
    const QString m_ownerPassword = distinctTestPassword(QStringLiteral("pg-owner"));
    const QString m_writerPassword = distinctTestPassword(QStringLiteral("pg-writer"));
};

QProcessEnvironment TestPgRecording::environment() const
{
    QProcessEnvironment env = testPasswordEnvironment();
    env.insert(QStringLiteral("TEAM_PW"), m_writerPassword);
    env.insert(QStringLiteral("XDG_STATE_HOME"), m_dir.filePath(QStringLiteral("state")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
    env.remove(QStringLiteral("PGPASSWORD"));
    return env;
}

bool TestPgRecording::startTeamCluster(PgCluster& pg)
{
    return test::startTeamCluster(pg, m_ownerPassword, m_writerPassword);
}

void TestPgRecording::initTestCase()
{
    QVERIFY(startTeamCluster(m_pg));
}

namespace {

// Until `done` is true (processing events meanwhile), at most `ms` (scaled for a slow machine).
bool waitFor(const std::function<bool()>& done, qint64 ms)
{
    QDeadlineTimer deadline(upperBoundMs(ms));
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QTest::qWait(20);
    }
    return true;
}

// What a reader makes of one resource, as `lockctl history --json` prints it, without the stores'
// own row numbers.
QJsonObject comparable(const ResourceHistory& history)
{
    QJsonObject json = HistoryJson::history(history);
    json.remove(QStringLiteral("sessions"));
    return json;
}

QString eventLine(const HistoryEvent& h)
{
    const RecordEvent& e = h.event;
    return QStringLiteral("%1 %2 %3 m%4 %5 owner=%6 ttl=%7 holding=%8 holders=%9 detail=%10 audit=%11")
        .arg(e.timeMs)
        .arg(escapeBytes(e.resource), recordEventKindName(e.kind))
        .arg(e.master)
        .arg(escapeBytes(e.token), e.owner)
        .arg(e.ttlMs)
        .arg(e.holding)
        .arg(e.holders)
        .arg(e.detail, e.auditId);
}

QStringList allEvents(RecordingReader& reader)
{
    QStringList out;
    const RedisError e = reader.forEachEvent([&out](const HistoryEvent& h) {
        out << eventLine(h);
        return true;
    });
    if (e.isError())
        qWarning("%s", qPrintable(e.message));
    // Each store orders by its ids; a force-release read from the audit log joins each store's
    // batches at its own moment, so the same events are compared in one order.
    out.sort();
    return out;
}

} // namespace

void TestPgRecording::oneRecordingReadsTheSameFromBothStores()
{
    RedisServerGroup group;
    std::unique_ptr<MonitorHarness> live;
    QVERIFY2(startLive(group, 3, &live), qPrintable(group.errorString()));
    const QString file = m_dir.filePath(QStringLiteral("both.sqlite"));
    const QString auditLog = m_dir.filePath(QStringLiteral("state/lockscope/audit.jsonl"));
    RecorderOptions fileOptions;
    fileOptions.path = file;
    fileOptions.auditLogPath = auditLog;
    fileOptions.flushIntervalMs = 50;
    RecorderOptions teamOptions = fileOptions;
    teamOptions.path = writerUrl();
    teamOptions.databasePassword = m_writerPassword;
    auto recorder = std::make_unique<Recorder>(
        fileOptions, [&](const RecorderOptions&, std::shared_ptr<RecordingSink::Counters> counters) {
            return new TeeRecordingSink(fileOptions, teamOptions, std::move(counters));
        });
    QSignalSpy opened(recorder->writer(), &RecordingSink::opened);
    recorder->attach(live->monitor.get());
    QVERIFY(opened.wait(10000));
    QVERIFY2(!opened.first().first().value<RedisError>().isError(),
             qPrintable(opened.first().first().value<RedisError>().message));

    const auto onAll = [&](const QByteArrayList& argv) {
        for (int i = 0; i < group.size(); ++i)
            group.at(i).command(argv);
    };
    const auto held = [&](const QByteArray& key, int count) {
        return waitFor([&] { return live->has(key) && live->view(key).holding == count; }, 5000);
    };
    const auto gone = [&](const QByteArray& key) { return waitFor([&] { return !live->has(key); }, 5000); };
    // A scripted day: taken, extended, released; expired; replaced; two holders at once; a binary
    // name; force-released by an administrator; a master restarted under a lock; one still held.
    onAll({"SET", "lock:day:released", "t-released", "PX", "20000"});
    QVERIFY(held("lock:day:released", 3));
    onAll({"PEXPIRE", "lock:day:released", "40000"});
    QTest::qWait(300);
    onAll({"DEL", "lock:day:released"});
    QVERIFY(gone("lock:day:released"));
    onAll({"SET", "lock:day:expired", "t-expired", "PX", "500"});
    QVERIFY(held("lock:day:expired", 3));
    QVERIFY(gone("lock:day:expired"));
    onAll({"SET", "lock:day:replaced", "t-first", "PX", "20000"});
    QVERIFY(held("lock:day:replaced", 3));
    onAll({"SET", "lock:day:replaced", "t-second", "PX", "20000"});
    QVERIFY(waitFor([&] { return live->view("lock:day:replaced").token == "t-second"; }, 5000));
    onAll({"DEL", "lock:day:replaced"});
    QVERIFY(gone("lock:day:replaced"));
    group.at(0).command({"SET", "lock:day:contested", "t-a", "PX", "20000"});
    group.at(1).command({"SET", "lock:day:contested", "t-b", "PX", "20000"});
    QVERIFY(waitFor([&] { return live->has("lock:day:contested"); }, 5000));
    QTest::qWait(500); // both holders read
    onAll({"DEL", "lock:day:contested"});
    QVERIFY(gone("lock:day:contested"));
    const QByteArray binary("lock:day:\x00\xff\x1b[31m", 16);
    onAll({"SET", binary, "t-binary", "PX", "20000"});
    QVERIFY(held(binary, 3));
    onAll({"DEL", binary});
    QVERIFY(gone(binary));
    onAll({"SET", "lock:day:forced", "t-forced", "PX", "60000"});
    QVERIFY(held("lock:day:forced", 3));
    const LockctlRun forced = runLockctl(
        group.lockctlArgs() + QStringList{QStringLiteral("force-release"), QStringLiteral("lock:day:forced"),
                                          QStringLiteral("--expect-token"), QStringLiteral("t-forced"),
                                          QStringLiteral("--yes")},
        30000, environment());
    QVERIFY2(forced.code == 0, qPrintable(forced.describe()));
    QVERIFY(gone("lock:day:forced"));
    onAll({"SET", "lock:day:restarted", "t-restarted", "PX", "60000"});
    QVERIFY(held("lock:day:restarted", 3));
    QVERIFY(group.at(2).restart());
    QVERIFY(held("lock:day:restarted", 2));
    // Redlock's known hole: a quorum on masters 0 and 1, master 1 restarted without persistence,
    // and a second client's quorum on masters 1 and 2 while the first holder's lease runs.
    group.at(0).command({"SET", "lock:day:overlap", "t-one", "PX", "60000"});
    group.at(1).command({"SET", "lock:day:overlap", "t-one", "PX", "60000"});
    QVERIFY(held("lock:day:overlap", 2));
    QVERIFY(group.at(1).restart());
    QVERIFY(held("lock:day:overlap", 1));
    group.at(1).command({"SET", "lock:day:overlap", "t-two", "NX", "PX", "60000"});
    group.at(2).command({"SET", "lock:day:overlap", "t-two", "NX", "PX", "60000"});
    QVERIFY(waitFor(
        [&] {
            const LockView v = live->view("lock:day:overlap");
            return v.token == "t-two" && v.holding == 2;
        },
        5000));
    QTest::qWait(300);
    // Ended before the recording is (an overlap still going on ends with the recording, and the two
    // stores' sessions end a few milliseconds apart).
    onAll({"DEL", "lock:day:overlap"});
    QVERIFY(gone("lock:day:overlap"));
    onAll({"SET", "lock:day:open", "t-open", "PX", "60000"});
    QVERIFY(held("lock:day:open", 3));
    QTest::qWait(1500); // the audit log's force-release, read at each store's next heartbeat
    recorder->flush();
    QVERIFY(waitFor([&] { return recorder->backlog() == 0; }, 10000));
    recorder.reset(); // both sessions end

    RecordingReader fromFile;
    RecordingReader fromTeam;
    QVERIFY(!fromFile.open(file).isError());
    const RedisError teamOpen = fromTeam.open(writerUrl(), m_writerPassword);
    QVERIFY2(!teamOpen.isError(), qPrintable(teamOpen.message));
    const Result<QList<QByteArray>> resources = fromFile.resources();
    QVERIFY(resources);
    QCOMPARE(resources->size(), 9);
    QCOMPARE(*fromTeam.resources(), *resources);
    for (const QByteArray& resource : *resources) {
        const Result<ResourceHistory> a = fromFile.history(resource);
        const Result<ResourceHistory> b = fromTeam.history(resource);
        QVERIFY(a && b);
        QVERIFY2(!a->episodes.isEmpty(), resource.constData());
        QCOMPARE(QJsonDocument(comparable(*b)).toJson(), QJsonDocument(comparable(*a)).toJson());
        QCOMPARE(HistoryJson::text(*b), HistoryJson::text(*a));
    }
    // What the story says, and how it was told.
    const auto ending = [&](const QByteArray& resource) {
        return HistoryJson::history(*fromTeam.history(resource))
            .value(QStringLiteral("episodes"))
            .toArray()
            .last()
            .toObject()
            .value(QStringLiteral("ended"))
            .toString();
    };
    QCOMPARE(ending("lock:day:released"), QStringLiteral("released"));
    QCOMPARE(ending("lock:day:expired"), QStringLiteral("expired"));
    QCOMPARE(ending("lock:day:forced"), QStringLiteral("force-released"));
    QCOMPARE(ending("lock:day:open"), QStringLiteral("open"));
    QCOMPARE(allEvents(fromTeam), allEvents(fromFile));
    QCOMPARE(fromTeam.sessions()->size(), 1);

    // The command-line readers print the same from both stores.
    for (const QStringList& command :
         {QStringList{QStringLiteral("stats"), QStringLiteral("--json")},
          QStringList{QStringLiteral("incidents"), QStringLiteral("--json")},
          QStringList{QStringLiteral("history"), QStringLiteral("lock:day:restarted"),
                      QStringLiteral("--json")}}) {
        const LockctlRun a =
            runLockctl(command + QStringList{QStringLiteral("--db"), file}, 30000, environment());
        const LockctlRun b = runLockctl(command + QStringList{QStringLiteral("--db"), writerUrl(),
                                                              QStringLiteral("--team-db-password-env"),
                                                              QStringLiteral("TEAM_PW")},
                                        30000, environment());
        // `incidents` exits 1 when it found some, as grep does.
        const int expected = command.first() == QLatin1String("incidents") ? 1 : 0;
        QVERIFY2(a.code == expected, qPrintable(a.describe()));
        QVERIFY2(b.code == expected, qPrintable(b.describe()));
        QVERIFY2(a.out.size() > 20, qPrintable(a.describe()));
        if (command.first() == QLatin1String("incidents"))
            QVERIFY2(a.out.contains("lock:day:overlap"), qPrintable(a.describe()));
        QVERIFY2(b.out == a.out, qPrintable(command.join(QLatin1Char(' ')) + QStringLiteral("\nfile: ") +
                                            QString::fromUtf8(a.out) + QStringLiteral("\nteam: ") +
                                            QString::fromUtf8(b.out)));
    }
}

void TestPgRecording::aCopiedRecordingReadsTheSameAndCopiesOnce()
{
    // The recording and audit log of the first test, copied into a database of their own.
    const QString file = m_dir.filePath(QStringLiteral("both.sqlite"));
    QVERIFY(QFile::exists(file));
    PgCluster fresh;
    QVERIFY(startTeamCluster(fresh));
    const QString to = fresh.url(QStringLiteral("lockscope_writer"));
    const QStringList password{QStringLiteral("--team-db-password-env"), QStringLiteral("TEAM_PW")};
    const QStringList copy = password + QStringList{QStringLiteral("db"),     QStringLiteral("copy"),
                                                    QStringLiteral("--from"), file,
                                                    QStringLiteral("--to"),   to};
    const LockctlRun first = runLockctl(copy, 60000, environment());
    QVERIFY2(first.code == 0 && first.out.contains("copied 1 session(s) with ") &&
                 first.out.contains(" and 1 audit record(s) to ") && !first.out.contains(" 0 event(s)"),
             qPrintable(first.describe()));
    const auto counts = [&fresh] {
        return fresh.psql(
            QStringLiteral("SELECT (SELECT count(*) FROM lockscope.sessions), (SELECT count(*) FROM "
                           "lockscope.events), (SELECT count(*) FROM lockscope.audit)"));
    };
    const QByteArray before = counts();
    QVERIFY(!before.trimmed().isEmpty());
    // Run twice, nothing doubles.
    const LockctlRun second = runLockctl(copy, 60000, environment());
    QVERIFY2(second.code == 0 &&
                 second.out.contains("copied 0 session(s) with 0 event(s) and 0 audit record(s)") &&
                 second.out.contains("already there: 1 session(s), 1 audit record(s)"),
             qPrintable(second.describe()));
    QCOMPARE(counts(), before);

    // Every reader prints the same from the file and from the database it was copied into.
    for (const QStringList& command :
         {QStringList{QStringLiteral("stats"), QStringLiteral("--json")},
          QStringList{QStringLiteral("incidents"), QStringLiteral("--json")},
          QStringList{QStringLiteral("history"), QStringLiteral("lock:day:forced"), QStringLiteral("--json")},
          QStringList{QStringLiteral("history"), QStringLiteral("lock:day:restarted"),
                      QStringLiteral("--json")},
          QStringList{QStringLiteral("history"), QStringLiteral("lock:day:replaced"),
                      QStringLiteral("--json")}}) {
        const LockctlRun a =
            runLockctl(command + QStringList{QStringLiteral("--db"), file}, 30000, environment());
        const LockctlRun b =
            runLockctl(password + command + QStringList{QStringLiteral("--db"), to}, 30000, environment());
        QVERIFY2(a.out.size() > 20 && a.code == b.code, qPrintable(a.describe() + b.describe()));
        QVERIFY2(b.out == a.out, qPrintable(command.join(QLatin1Char(' '))));
    }
    // The force-release's audit record, in its writer's chain, read by `lockctl audit`.
    const LockctlRun verified =
        runLockctl(password + QStringList{QStringLiteral("--team-db"), to, QStringLiteral("audit"),
                                          QStringLiteral("--verify")},
                   30000, environment());
    QVERIFY2(verified.code == 0, qPrintable(verified.describe()));
    const LockctlRun records =
        runLockctl(password + QStringList{QStringLiteral("--json"), QStringLiteral("--team-db"), to,
                                          QStringLiteral("audit")},
                   30000, environment());
    QVERIFY2(records.code == 0 && records.out.contains("\"action\":\"force-release\"") &&
                 records.out.contains("lock:day:forced"),
             qPrintable(records.describe()));
}

void TestPgRecording::aDatabaseRestartedMidSessionLosesNothing()
{
    RecorderOptions options;
    options.path = writerUrl();
    options.databasePassword = m_writerPassword;
    options.auditPollMs = 100;
    auto counters = std::make_shared<RecordingSink::Counters>();
    PostgresRecordingWriter writer(options, counters);
    QSignalSpy opened(&writer, &RecordingSink::opened);
    QSignalSpy failed(&writer, &RecordingSink::failed);
    writer.start({QStringLiteral("m0")});
    QCOMPARE(opened.size(), 1);
    QVERIFY(!opened.first().first().value<RedisError>().isError());
    const auto batch = [](const QByteArray& resource, qint64 t) {
        RecordEvent e;
        e.kind = RecordEvent::Kind::Acquired;
        e.timeMs = t;
        e.resource = resource;
        e.master = 0;
        e.token = "tok-" + resource;
        e.holding = 1;
        e.holders = 1;
        return RecordEventList{e};
    };
    const qint64 t0 = QDateTime::currentMSecsSinceEpoch();
    counters->backlog += 1;
    writer.write(batch("outage:before", t0));
    QCOMPARE(counters->written.load(), 1);
    // The next test needs it running, whatever happens here.
    const auto running = qScopeGuard([this] {
        if (!m_pg.isRunning())
            m_pg.restart();
    });
    QVERIFY(m_pg.stop());
    for (int i = 0; i < 3; ++i) {
        counters->backlog += 1;
        writer.write(batch("outage:during-" + QByteArray::number(i), t0 + 1 + i));
    }
    QCOMPARE(failed.size(), 1); // said once per failure streak
    const QString said = failed.first().first().value<RedisError>().message;
    QVERIFY2(said.contains(QLatin1String("kept in memory")) && !said.contains(m_writerPassword),
             qPrintable(said));
    QCOMPARE(counters->backlog.load(), 3); // held, not dropped
    QCOMPARE(counters->dropped.load(), 0);
    QVERIFY2(m_pg.restart(), qPrintable(m_pg.errorString()));
    QVERIFY(waitFor([&] { return counters->written.load() == 4; }, 10000)); // the heartbeat tries again
    QCOMPARE(counters->backlog.load(), 0);
    writer.finish();

    RecordingReader reader;
    QVERIFY(!reader.open(writerUrl(), m_writerPassword).isError());
    for (const QByteArray& resource :
         {QByteArray("outage:before"), QByteArray("outage:during-0"), QByteArray("outage:during-2")}) {
        const Result<ResourceHistory> h = reader.history(resource);
        QVERIFY(h);
        QCOMPARE(h->events.size(), 1);
        QCOMPARE(h->events.first().event.token, "tok-" + resource);
    }
}

void TestPgRecording::literalsReadBackAsWritten()
{
    // What the writer spells as literals (SqlRowText) is what PostgreSQL stores, whatever its
    // standard_conforming_strings says.
    TeamDatabase db;
    QVERIFY(!db.open(*TeamDatabaseUrl::parse(writerUrl()), m_writerPassword).isError());
    const QByteArray bytes("it's\\\x00\xff\x01 '--", 12);
    const QString text = QStringLiteral("o'brien \\x00 C:\\temp\\ ' ; -- → 🔒 \\");
    for (const char* conforming : {"on", "off"}) {
        QSqlQuery q(db.db());
        QVERIFY(
            q.exec(QStringLiteral("SET standard_conforming_strings = %1").arg(QLatin1String(conforming))));
        SqlRowText sql;
        sql.append("SELECT * FROM (VALUES ");
        sql.beginRow(true);
        sql.bytes(bytes);
        sql.text(text);
        sql.text(QString());
        sql.number(-42);
        sql.endRow();
        sql.append(") AS v(b, t, n, i)");
        QVERIFY2(q.exec(sql.statement()) && q.next(), qPrintable(q.lastError().text()));
        QCOMPARE(q.value(0).toByteArray(), bytes);
        QCOMPARE(q.value(1).toString(), text);
        QVERIFY(q.value(2).isNull());
        QCOMPARE(q.value(3).toLongLong(), -42);
    }
}

void TestPgRecording::twoWritersShareOneHistory()
{
    // Two recorders (two hosts, say) writing the same resource's events in turn: each batch says
    // which event came before each of its own, whoever wrote it, and the history holds all of them.
    RecorderOptions options;
    options.path = writerUrl();
    options.databasePassword = m_writerPassword;
    PostgresRecordingWriter a(options, std::make_shared<RecordingSink::Counters>());
    PostgresRecordingWriter b(options, std::make_shared<RecordingSink::Counters>());
    QList<CommittedBatch> fromA;
    QList<CommittedBatch> fromB;
    connect(&a, &RecordingSink::committed, this, [&](const CommittedBatch& c) { fromA << c; });
    connect(&b, &RecordingSink::committed, this, [&](const CommittedBatch& c) { fromB << c; });
    a.start({QStringLiteral("site-a")});
    b.start({QStringLiteral("site-b")});
    const qint64 t0 = QDateTime::currentMSecsSinceEpoch();
    const auto event = [&](RecordEvent::Kind kind, int step) {
        RecordEvent e;
        e.kind = kind;
        e.timeMs = t0 + step;
        e.resource = "shared:lock";
        e.master = 0;
        e.token = "tok-" + QByteArray::number(step / 2);
        e.holding = 1;
        e.holders = 1;
        return e;
    };
    a.write({event(RecordEvent::Kind::Acquired, 0), event(RecordEvent::Kind::Released, 1)});
    b.write({event(RecordEvent::Kind::Acquired, 2)});
    a.write({event(RecordEvent::Kind::Acquired, 4)}); // a has not seen b's event: it must read it
    b.write({event(RecordEvent::Kind::Released, 3), event(RecordEvent::Kind::Released, 5)});
    a.finish();
    b.finish();
    QCOMPARE(fromA.size(), 2);
    QCOMPARE(fromB.size(), 2);
    const qint64 a1 = fromA.at(0).firstId;
    QCOMPARE(fromA.at(0).previous, (QList<qint64>{0, a1}));
    const qint64 b1 = fromB.at(0).firstId;
    QVERIFY(b1 > a1 + 1);
    QCOMPARE(fromB.at(0).previous, (QList<qint64>{a1 + 1}));
    const qint64 a2 = fromA.at(1).firstId;
    QCOMPARE(fromA.at(1).previous, (QList<qint64>{b1}));
    const qint64 b2 = fromB.at(1).firstId;
    QCOMPARE(fromB.at(1).previous, (QList<qint64>{a2, b2}));

    RecordingReader reader;
    QVERIFY(!reader.open(writerUrl(), m_writerPassword).isError());
    const Result<ResourceHistory> h = reader.history("shared:lock", -1, {QStringLiteral("site-a")});
    QVERIFY(h);
    // Each site's own story (their masters differ), and the other named.
    QCOMPARE(h->otherMasterSets, (QList<QStringList>{{QStringLiteral("site-b")}}));
    QCOMPARE(h->events.size(), 3);
    QCOMPARE(reader.history("shared:lock", -1, {QStringLiteral("site-b")})->events.size(), 3);
}

void TestPgRecording::lockctlRecordsIntoTheTeamDatabase()
{
    RedisServerOptions redisOptions;
    redisOptions.notifications = true;
    RedisServerGroup group;
    QVERIFY2(group.start(1, redisOptions), qPrintable(group.errorString()));
    qputenv("LOCKSCOPE_TEST_TEAM_PW", m_writerPassword.toUtf8());
    const auto unset = qScopeGuard([] { qunsetenv("LOCKSCOPE_TEST_TEAM_PW"); });
    LockctlProcess recorder;
    QVERIFY(recorder.start(group.lockctlArgs() + QStringList{QStringLiteral("record"), QStringLiteral("--db"),
                                                             writerUrl(),
                                                             QStringLiteral("--team-db-password-env"),
                                                             QStringLiteral("LOCKSCOPE_TEST_TEAM_PW")}));
    QVERIFY2(recorder.waitForOutput("recording 1 master(s)"), qPrintable(recorder.describe()));
    group.at(0).command({"SET", "lock:cli:orders", "t-cli", "PX", "20000"});
    QTest::qWait(500);
    group.at(0).command({"DEL", "lock:cli:orders"});
    QProcessEnvironment env = environment();
    env.insert(QStringLiteral("LOCKSCOPE_TEST_TEAM_PW"), m_writerPassword);
    const QStringList read{QStringLiteral("--db"), writerUrl(), QStringLiteral("--team-db-password-env"),
                           QStringLiteral("LOCKSCOPE_TEST_TEAM_PW")};
    QJsonObject history;
    QVERIFY(waitFor(
        [&] {
            const LockctlRun run = runLockctl(QStringList{QStringLiteral("--json"), QStringLiteral("history"),
                                                          QStringLiteral("lock:cli:orders")} +
                                                  read,
                                              30000, env);
            history = QJsonDocument::fromJson(run.out).object();
            const QJsonArray episodes = history.value(QStringLiteral("episodes")).toArray();
            return !episodes.isEmpty() &&
                   episodes.last().toObject().value(QStringLiteral("ended")).toString() ==
                       QLatin1String("released");
        },
        10000));
    QCOMPARE(
        history.value(QStringLiteral("episodes")).toArray().first().toObject().value(QStringLiteral("token")),
        QJsonValue(QStringLiteral("t-cli")));
    const int stopped = recorder.terminate();
    QVERIFY2(stopped == 0 && recorder.out().contains("event(s) recorded"), qPrintable(recorder.describe()));
    QVERIFY(!recorder.out().contains(m_writerPassword.toUtf8()) &&
            !recorder.err().contains(m_writerPassword.toUtf8()));
    // A wrong password: a clear error naming the database without any password, and no file made.
    env.insert(QStringLiteral("LOCKSCOPE_TEST_TEAM_PW"), QStringLiteral("not-the-password"));
    const LockctlRun wrong = runLockctl(
        QStringList{QStringLiteral("history"), QStringLiteral("lock:cli:orders")} + read, 30000, env);
    QVERIFY2(wrong.code != 0 && wrong.err.contains("lockscope_writer@127.0.0.1") &&
                 !wrong.err.contains("not-the-password"),
             qPrintable(wrong.describe()));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestPgRecording)

} // namespace tst_pgrecording

#include "tst_pgrecording.moc"
