// SPDX-License-Identifier: Apache-2.0
#include "record/recordingdatabase.h"
#include "record/recordingreader.h"
#include "record/recordingwriter.h"
#include "support/testregistry.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

namespace tst_recordingstore {

using namespace lockscope;

// The recording file on its own: its schema (created, migrated from an older version, refused when
// newer or foreign) and retention by age and by size, which never holds recording back.
class TestRecordingStore : public QObject
{
    Q_OBJECT

private slots:
    void newFileIsPrivateWalAndCurrent();
    void olderRecordingIsMigratedAndStillReads();
    void version4RecordingGetsItsChainsOnOpen();
    void recordersTakingTurnsKeepOneStory();
    void manyNewResourcesInOneBatchKeepTheirChains();
    void aStoryReadFromItsLatestCommitIsTheWholeStory();
    void killedWriterLeavesItsTailReadable();
    void fileWithNoIdsLeftIsRefusedNotWrapped();
    void newerOrForeignFileIsRefusedByName();
    void pruneByAgeKeepsTheRecentAndLetsWritesThrough();
    void pruneBySizeShrinksTheFileAndKeepsTheNewest();

private:
    static RecordEvent event(const QByteArray& resource, qint64 timeMs, const QByteArray& token = "t");
    // The tokens of a resource's `acquired` events, as a reader of the file reads them.
    static QList<QByteArray> acquiredTokens(const QString& path, const QByteArray& resource);
    static QList<QByteArray> acquiredTokens(RecordingReader& reader, const QByteArray& resource);
    static qint64 oldest(const QString& path);
};

RecordEvent TestRecordingStore::event(const QByteArray& resource, qint64 timeMs, const QByteArray& token)
{
    RecordEvent e;
    e.kind = RecordEvent::Kind::Acquired;
    e.resource = resource;
    e.timeMs = timeMs;
    e.token = token;
    e.holding = 1;
    e.holders = 1;
    return e;
}

QList<QByteArray> TestRecordingStore::acquiredTokens(const QString& path, const QByteArray& resource)
{
    RecordingReader reader;
    if (reader.open(path))
        return {};
    return acquiredTokens(reader, resource);
}

QList<QByteArray> TestRecordingStore::acquiredTokens(RecordingReader& reader, const QByteArray& resource)
{
    QList<QByteArray> read;
    const Result<ResourceHistory> h = reader.history(resource);
    if (h.ok())
        for (const HistoryEvent& e : h->events)
            if (e.event.kind == RecordEvent::Kind::Acquired)
                read << e.event.token;
    return read;
}

namespace {

// Two recorders on one file (the window and `lockctl record`): two processes, counters of their own.
struct TwoWriters
{
    explicit TwoWriters(QString file) : path(std::move(file))
    {
        for (RecordingWriter* writer : {&first, &second})
            writer->start({QStringLiteral("redis://127.0.0.1:6379")});
    }
    static RecorderOptions at(const QString& path)
    {
        RecorderOptions options;
        options.path = path;
        return options;
    }

    QString path;
    std::shared_ptr<RecordingWriter::Counters> firstCounters = std::make_shared<RecordingWriter::Counters>();
    std::shared_ptr<RecordingWriter::Counters> secondCounters = std::make_shared<RecordingWriter::Counters>();
    RecordingWriter first{at(path), firstCounters};
    RecordingWriter second{at(path), secondCounters};
};

} // namespace

qint64 TestRecordingStore::oldest(const QString& path)
{
    RecordingDatabase db;
    if (db.open(path, true))
        return -1;
    return db.scalar(QStringLiteral("SELECT min(t) FROM events")).toLongLong();
}

void TestRecordingStore::newFileIsPrivateWalAndCurrent()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("state/lockscope/recording.sqlite"));
    RecordingDatabase db;
    QVERIFY(!db.open(path));
    QCOMPARE(db.scalar(QStringLiteral("PRAGMA user_version")).toInt(), RecordingDatabase::schemaVersion);
    QCOMPARE(db.scalar(QStringLiteral("PRAGMA journal_mode")).toString(), QStringLiteral("wal"));
    // It says who held which lock: only its owner reads it.
    QCOMPARE(QFile::permissions(path) &
                 ~(QFile::ReadUser | QFile::WriteUser | QFile::ReadOwner | QFile::WriteOwner),
             QFile::Permissions());
    // Every directory it made, not only the last (issue #39).
    for (const QString& made : {dir.filePath(QStringLiteral("state")), QFileInfo(path).absolutePath()})
        QCOMPARE(QFileInfo(made).permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup |
                                                  QFile::WriteOther | QFile::ExeGroup | QFile::ExeOther),
                 QFile::Permissions());
}

void TestRecordingStore::olderRecordingIsMigratedAndStillReads()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v1.sqlite"));
    {
        // What the first recorder (schema 1, no audit ids) left behind.
        RecordingDatabase v1;
        QVERIFY(!v1.open(path, false, 1));
        QCOMPARE(v1.scalar(QStringLiteral("PRAGMA user_version")).toInt(), 1);
        QVERIFY(
            !v1.exec(QStringLiteral("INSERT INTO sessions(id, started, last, masters) VALUES(1, 1000, 5000, "
                                    "'[\"redis://127.0.0.1:6379\"]')")));
        QVERIFY(
            !v1.exec(QStringLiteral("INSERT INTO resources(id, name) VALUES(1, CAST('orders' AS BLOB))")));
        QVERIFY(
            !v1.exec(QStringLiteral("INSERT INTO events(session, t, resource, kind, token, holding, holders) "
                                    "VALUES(1, 2000, 1, 2, 'tok', 1, 1), (1, 3000, 1, 4, 'tok', 0, 0)")));
        QVERIFY(v1.exec(QStringLiteral("SELECT audit FROM events")).isError()); // not there yet
    }
    RecordingReader reader;
    QVERIFY(!reader.open(path));
    const Result<ResourceHistory> history = reader.history("orders");
    QVERIFY(history.ok());
    QCOMPARE(history->episodes.size(), 1);
    QCOMPARE(history->episodes.first().token, QByteArray("tok"));
    QCOMPARE(history->episodes.first().ended, Episode::End::Released);
    QCOMPARE(history->episodes.first().masters, QStringList{QStringLiteral("redis://127.0.0.1:6379")});
    // Read through an upgraded copy in memory: the file itself is as old as it was (issue #39).
    RecordingDatabase read;
    QVERIFY(!read.openForReading(path));
    QCOMPARE(read.fileVersion(), 1);
    QVERIFY(read.exec(QStringLiteral("INSERT INTO heads_saved(through) VALUES(0)")).isError()); // read-only
    // A writer upgrades it in place.
    RecordingDatabase after;
    QVERIFY(!after.open(path, true));
    QCOMPARE(after.scalar(QStringLiteral("PRAGMA user_version")).toInt(), RecordingDatabase::schemaVersion);
    QVERIFY(!after.exec(QStringLiteral("SELECT audit FROM events")));
    // Version 3: the masters' events alone are indexed by time; version 5: the resources' events by
    // nothing (each names the one before it).
    QCOMPARE(
        after.scalar(QStringLiteral("SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE "
                                    "type = 'index' AND tbl_name = 'events' ORDER BY name)")),
        QVariant(QStringLiteral("master_events_by_time")));
}

void TestRecordingStore::version4RecordingGetsItsChainsOnOpen()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("v4.sqlite"));
    {
        // What schema 4 left: two resources' events interleaved, a master's event between them, a
        // resource whose events were all pruned.
        RecordingDatabase v4;
        QVERIFY(!v4.open(path, false, 4));
        QVERIFY(
            !v4.exec(QStringLiteral("INSERT INTO sessions(id, started, last, masters) VALUES(1, 1000, 9000, "
                                    "'[\"redis://127.0.0.1:6379\"]')")));
        QVERIFY(!v4.exec(QStringLiteral("INSERT INTO resources(id, name) VALUES(1, CAST('a' AS BLOB)), "
                                        "(2, CAST('b' AS BLOB)), (3, CAST('gone' AS BLOB))")));
        QVERIFY(!v4.exec(
            QStringLiteral("INSERT INTO events(id, session, t, resource, master, kind, token, holding, "
                           "holders) VALUES(1, 1, 2000, 1, NULL, 2, 'a1', 1, 1), (2, 1, 2100, 2, NULL, 2, "
                           "'b1', 1, 1), (3, 1, 2200, NULL, 0, 20, NULL, NULL, NULL), (4, 1, 3000, 1, NULL, "
                           "4, 'a1', 0, 0), (5, 1, 3500, 1, NULL, 2, 'a2', 1, 1), (6, 1, 4000, 2, NULL, 5, "
                           "'b1', 0, 0)")));
    }
    RecordingDatabase after;
    QVERIFY(!after.open(path, true));
    QCOMPARE(after.scalar(QStringLiteral("PRAGMA user_version")).toInt(), RecordingDatabase::schemaVersion);
    // Each resource event names its resource's event before it; each resource its latest.
    QCOMPARE(after.scalar(QStringLiteral("SELECT group_concat(id || ':' || coalesce(prev, '-'), ' ') FROM "
                                         "(SELECT id, prev FROM events ORDER BY id)")),
             QVariant(QStringLiteral("1:- 2:- 3:- 4:1 5:4 6:2")));
    QCOMPARE(after.scalar(QStringLiteral("SELECT group_concat(id || ':' || coalesce(last, '-'), ' ') FROM "
                                         "(SELECT id, last FROM resources ORDER BY id)")),
             QVariant(QStringLiteral("1:5 2:6 3:-")));
    RecordingReader reader;
    QVERIFY(!reader.open(path));
    QCOMPARE(*reader.resources(), (QList<QByteArray>{"a", "b"}));
    const Result<ResourceHistory> a = reader.history("a");
    QVERIFY(a.ok());
    QList<qint64> ids;
    for (const HistoryEvent& h : a->events)
        ids << h.id;
    QCOMPARE(ids, (QList<qint64>{1, 3, 4, 5})); // its own and the master's while it was recorded
    QCOMPARE(a->episodes.size(), 2);
    QCOMPARE(a->episodes.last().token, QByteArray("a2"));
}

void TestRecordingStore::recordersTakingTurnsKeepOneStory()
{
    // The window and `lockctl record` on one file: each writer's batches follow the other's, and
    // each event still names the resource's event before it, whoever wrote that one.
    QTemporaryDir dir;
    TwoWriters w(dir.filePath(QStringLiteral("two.sqlite")));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QList<QByteArray> tokens;
    for (int i = 0; i < 6; ++i) {
        const QByteArray token = "t" + QByteArray::number(i);
        tokens << token;
        (i % 2 == 0 ? w.first : w.second).write({event("shared", now + i, token), event("other", now + i)});
    }
    w.first.finish();
    w.second.finish();
    QCOMPARE(w.firstCounters->written.load() + w.secondCounters->written.load(), 12);
    QCOMPARE(acquiredTokens(w.path, "shared"), tokens);
}

void TestRecordingStore::manyNewResourcesInOneBatchKeepTheirChains()
{
    // A batch's resources new to the writer are looked up 32 to a statement, the new ones stored 32
    // to a statement with their latest event of the batch; another recorder stored some of them
    // before, with events this writer has to chain to.
    QTemporaryDir dir;
    TwoWriters w(dir.filePath(QStringLiteral("many.sqlite")));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const auto name = [](int i) -> QByteArray { return "r" + QByteArray::number(i); };
    RecordEventList before;
    for (int i = 0; i < 100; i += 7)
        before << event(name(i), now, "old");
    w.first.write(before);
    RecordEventList batch;
    for (const QByteArray token : {"a", "b", "c"})
        for (int i = 99; i >= 0; --i)
            batch << event(name(i), now + 1, token);
    w.second.write(batch);
    w.second.write({event(name(5), now + 2, "d"), event(name(7), now + 2, "d")});
    w.first.finish();
    w.second.finish();
    QCOMPARE(w.secondCounters->written.load(), 302);
    RecordingReader reader;
    QVERIFY(!reader.open(w.path));
    for (int i = 0; i < 100; ++i) {
        QList<QByteArray> expected;
        if (i % 7 == 0)
            expected << "old";
        expected << "a"
                 << "b"
                 << "c";
        if (i == 5 || i == 7)
            expected << "d";
        QCOMPARE(acquiredTokens(reader, name(i)), expected);
    }
}

void TestRecordingStore::aStoryReadFromItsLatestCommitIsTheWholeStory()
{
    // The live incident watch reads a suspect's story from the latest event its writer committed
    // (RecordingReader::history's latestId) rather than search the unsaved tail for it: the same
    // story, each time (the reader keeps its statements prepared between reads).
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("latest.sqlite"));
    RecordingWriter writer(options, std::make_shared<RecordingWriter::Counters>());
    QHash<QByteArray, qint64> latest;
    connect(&writer, &RecordingSink::committed, this, [&latest](const CommittedBatch& batch) {
        for (qsizetype i = 0; i < batch.events.size(); ++i)
            latest.insert(batch.events.at(i).resource, batch.firstId + i);
    });
    writer.start({QStringLiteral("redis://127.0.0.1:6379")});
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (int round = 0; round < 5; ++round) {
        RecordEventList batch;
        for (int i = round; i < 40; ++i)
            batch << event("r" + QByteArray::number(i), now + round, "t" + QByteArray::number(round));
        writer.write(batch);
    }
    QCOMPARE(latest.size(), 40);
    RecordingReader reader;
    QVERIFY(!reader.open(options.path));
    for (int pass = 0; pass < 2; ++pass)
        for (auto it = latest.cbegin(); it != latest.cend(); ++it) {
            const Result<ResourceHistory> fromTail = reader.history(it.key());
            const Result<ResourceHistory> fromLatest = reader.history(it.key(), -1, {}, it.value());
            QVERIFY(fromTail.ok() && fromLatest.ok());
            QCOMPARE(fromLatest->events.size(), fromTail->events.size());
            QCOMPARE(acquiredTokens(reader, it.key()).size(), qMin(5, it.key().mid(1).toInt() + 1));
            for (qsizetype e = 0; e < fromTail->events.size(); ++e)
                QCOMPARE(fromLatest->events.at(e).id, fromTail->events.at(e).id);
        }
    writer.finish();
}

void TestRecordingStore::killedWriterLeavesItsTailReadable()
{
    // The latest events are stored every 30 s, not with each batch: a writer killed in between
    // leaves events that only the tail after heads_saved.through names. Readers find them there,
    // and the next writer chains to them and takes them in.
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("killed.sqlite"));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    {
        RecordingWriter killed(options, std::make_shared<RecordingWriter::Counters>());
        killed.start({QStringLiteral("redis://127.0.0.1:6379")});
        killed.write({event("a", now, "a1"), event("b", now, "b1")});
        killed.write({event("a", now + 1, "a2")});
        killed.write({event("a", now + 2, "a3"), event("b", now + 2, "b2")});
        // No finish(): the session ends as a SIGKILL ends it, its commits in the file.
    }
    {
        RecordingDatabase db;
        QVERIFY(!db.open(options.path, true));
        // Stored when "a" and "b" were first met; the rest is only in the tail.
        QCOMPARE(db.scalar(QStringLiteral("SELECT group_concat(name || ':' || last, ' ') FROM (SELECT "
                                          "CAST(name AS TEXT) AS name, last FROM resources ORDER BY id)")),
                 QVariant(QStringLiteral("a:1 b:2")));
    }
    const auto tokens = [&](const QByteArray& resource) { return acquiredTokens(options.path, resource); };
    QCOMPARE(tokens("a"), (QList<QByteArray>{"a1", "a2", "a3"}));
    QCOMPARE(tokens("b"), (QList<QByteArray>{"b1", "b2"}));
    {
        RecordingReader reader;
        QVERIFY(!reader.open(options.path));
        QCOMPARE(*reader.resources(), (QList<QByteArray>{"a", "b"}));
    }
    RecordingWriter next(options, std::make_shared<RecordingWriter::Counters>());
    next.start({QStringLiteral("redis://127.0.0.1:6379")});
    next.write({event("a", now + 3, "a4")});
    QCOMPARE(tokens("a"), (QList<QByteArray>{"a1", "a2", "a3", "a4"}));
    next.finish();
    RecordingDatabase db;
    QVERIFY(!db.open(options.path, true));
    // The session's end stored every latest event: nothing is left to the tail.
    QCOMPARE(
        db.scalar(QStringLiteral("SELECT through = (SELECT max(id) FROM events) FROM heads_saved")).toInt(),
        1);
    QCOMPARE(db.scalar(QStringLiteral("SELECT group_concat(name || ':' || last, ' ') FROM (SELECT "
                                      "CAST(name AS TEXT) AS name, last FROM resources ORDER BY id)")),
             QVariant(QStringLiteral("a:6 b:5")));
    QCOMPARE(tokens("a"), (QList<QByteArray>{"a1", "a2", "a3", "a4"}));
}

void TestRecordingStore::fileWithNoIdsLeftIsRefusedNotWrapped()
{
    // Event and resource ids count up from the file's largest. A damaged file whose largest is
    // 2^63 - 1 (the recording fuzz target made one) has none left: the batch is refused with a
    // reason and nothing is written, where the next id used to overflow.
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("full.sqlite"));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const QString& table : {QStringLiteral("events"), QStringLiteral("resources")}) {
        QFile::remove(options.path);
        {
            RecordingWriter first(options, std::make_shared<RecordingWriter::Counters>());
            first.start({QStringLiteral("redis://127.0.0.1:6379")});
            first.write({event("a", now, "a1")});
            first.finish();
        }
        {
            RecordingDatabase db;
            QVERIFY(!db.open(options.path, true));
            QVERIFY(!db.exec(QStringLiteral("UPDATE %1 SET id = 9223372036854775807").arg(table)));
        }
        const auto counters = std::make_shared<RecordingWriter::Counters>();
        RecordingWriter writer(options, counters);
        QSignalSpy failed(&writer, &RecordingWriter::failed);
        writer.start({QStringLiteral("redis://127.0.0.1:6379")});
        // A new resource needs a resource id, and its event an event id.
        writer.write({event("b", now + 1, "b1")});
        QCOMPARE(counters->written.load(), 0);
        QCOMPARE(counters->dropped.load(), 1);
        QCOMPARE(failed.size(), 1);
        const QString message = failed.at(0).at(0).value<RedisError>().message;
        QVERIFY2(message.contains(QLatin1String("ids run out")), qPrintable(message));
        // The resource the refused batch was naming is not taken as named by the next one.
        writer.write({event("b", now + 2, "b2")});
        QCOMPARE(counters->written.load(), 0);
        QCOMPARE(counters->dropped.load(), 2);
        writer.finish();
        RecordingDatabase db;
        QVERIFY(!db.open(options.path, true));
        QCOMPARE(db.scalar(QStringLiteral("SELECT count(*) FROM events")).toInt(), 1);
    }
}

void TestRecordingStore::newerOrForeignFileIsRefusedByName()
{
    QTemporaryDir dir;
    const QString newer = dir.filePath(QStringLiteral("newer.sqlite"));
    {
        RecordingDatabase db;
        QVERIFY(!db.open(newer));
        QVERIFY(
            !db.exec(QStringLiteral("PRAGMA user_version = %1").arg(RecordingDatabase::schemaVersion + 1)));
    }
    RecordingDatabase a;
    const RedisError tooNew = a.open(newer);
    QVERIFY(tooNew.isError());
    QVERIFY2(
        tooNew.message.contains(newer) && tooNew.message.contains(QLatin1String("newer LockScope")) &&
            tooNew.message.contains(QStringLiteral("version %1").arg(RecordingDatabase::schemaVersion + 1)),
        qPrintable(tooNew.message));

    const QString foreign = dir.filePath(QStringLiteral("foreign.sqlite"));
    {
        RecordingDatabase db;
        QVERIFY(!db.open(foreign, false, 0)); // an empty SQLite file, then somebody else's table
        QVERIFY(!db.exec(QStringLiteral("CREATE TABLE invoices(id INTEGER)")));
    }
    RecordingDatabase b;
    QVERIFY(b.open(foreign).message.contains(QLatin1String("not a LockScope recording")));

    const QString text = dir.filePath(QStringLiteral("notes.txt"));
    QFile file(text);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(4096, 'x'));
    file.close();
    RecordingDatabase c;
    const RedisError notSqlite = c.open(text);
    QVERIFY(notSqlite.isError());
    QVERIFY2(notSqlite.message.contains(text), qPrintable(notSqlite.message));
}

void TestRecordingStore::pruneByAgeKeepsTheRecentAndLetsWritesThrough()
{
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("age.sqlite"));
    options.maxAgeMs = 24 * 3600 * 1000;
    options.maxBytes = 0;
    options.pruneIntervalMs = 3600 * 1000;
    auto counters = std::make_shared<RecordingWriter::Counters>();
    RecordingWriter writer(options, counters);
    QSignalSpy opened(&writer, &RecordingWriter::opened);
    writer.start({QStringLiteral("redis://127.0.0.1:6379")});
    QCOMPARE(opened.count(), 1);
    QVERIFY(!opened.first().first().value<RedisError>().isError());

    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    RecordEventList events;
    for (int i = 0; i < 3500; ++i) // two days old: past the retention
        events << event("old:" + QByteArray::number(i % 10), now - 2 * 24 * 3600 * 1000 + i);
    for (int i = 0; i < 100; ++i)
        events << event("fresh:" + QByteArray::number(i % 10), now - 3600 * 1000 + i);
    writer.write(events);
    QCOMPARE(counters->written.load(), 3600);

    // A pass of several steps; a batch that arrives meanwhile is written between two of them.
    QStringList order;
    connect(&writer, &RecordingWriter::pruneFinished, this, [&] { order << QStringLiteral("pruned"); });
    QSignalSpy pruned(&writer, &RecordingWriter::pruneFinished);
    writer.pruneNow();
    QMetaObject::invokeMethod(
        &writer,
        [&] {
            writer.write({event("fresh:late", now)});
            order << QStringLiteral("written");
        },
        Qt::QueuedConnection);
    QVERIFY(pruned.wait(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(pruned.first().first().toLongLong(), 3500);
    QCOMPARE(order, (QStringList{QStringLiteral("written"), QStringLiteral("pruned")}));

    RecordingReader reader;
    QVERIFY(!reader.open(options.path));
    QVERIFY(reader.history("old:3")->events.isEmpty());
    QCOMPARE(reader.history("fresh:3")->events.size(), 10);
    QCOMPARE(reader.history("fresh:late")->events.size(), 1);
    QCOMPARE(reader.resources()->size(), 11); // the names of pruned resources are not listed
}

void TestRecordingStore::pruneBySizeShrinksTheFileAndKeepsTheNewest()
{
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("size.sqlite"));
    options.maxAgeMs = 0;
    options.maxBytes = 256 * 1024;
    options.pruneIntervalMs = 3600 * 1000;
    auto counters = std::make_shared<RecordingWriter::Counters>();
    RecordingWriter writer(options, counters);
    writer.start({QStringLiteral("redis://127.0.0.1:6379")});
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (int batch = 0; batch < 10; ++batch) {
        RecordEventList events;
        for (int i = 0; i < 2000; ++i) {
            const int n = batch * 2000 + i;
            events << event("size:" + QByteArray::number(n % 500), now - 20000 + n,
                            "token-" + QByteArray::number(n) + "-0123456789abcdef");
        }
        writer.write(events);
    }
    QVERIFY(QFileInfo(options.path).size() + QFileInfo(options.path + QStringLiteral("-wal")).size() >
            options.maxBytes);
    QSignalSpy pruned(&writer, &RecordingWriter::pruneFinished);
    writer.pruneNow();
    QVERIFY(pruned.wait(int(lockscope::test::upperBoundMs(20000))));
    QVERIFY(pruned.first().first().toLongLong() > 0);
    const qint64 size = QFileInfo(options.path).size();
    QVERIFY2(size <= options.maxBytes, qPrintable(QString::number(size)));
    QVERIFY(oldest(options.path) > now - 20000); // the oldest went ...
    RecordingReader reader;
    QVERIFY(!reader.open(options.path));
    const Result<ResourceHistory> newest = reader.history("size:499"); // ... the newest stayed
    QVERIFY(newest.ok());
    QCOMPARE(newest->events.last().event.token, QByteArray("token-19999-0123456789abcdef"));
}

LOCKSCOPE_TEST_MAIN(TestRecordingStore)

} // namespace tst_recordingstore

#include "tst_recordingstore.moc"
