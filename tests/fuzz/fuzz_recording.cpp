// SPDX-License-Identifier: Apache-2.0
// Recordings from elsewhere (issue #39): real recordings of every schema version, edited at the SQL
// level by the input (rows dropped, kinds swapped, NULLs, huge values, chains pointing anywhere,
// tables dropped or replaced by views, triggers, schema versions out of range), then read as
// `lockctl history` reads them and written as `lockctl record` writes them. Each open ends in a
// recording or an error that names the file; nothing crashes or hangs.
//
// Not a custom mutator: libFuzzer mutates a small program of edits (4 bytes each, below), so its
// byte-level mutations are SQL-level ones; the seeds are the recordings the program applies to.
#include "record/historyjson.h"
#include "record/recordingdatabase.h"
#include "record/recordingreader.h"
#include "record/recordingwriter.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstdlib>
#include <sqlite3.h>

using namespace lockscope;

namespace {

QTemporaryDir* scratch = nullptr;
QList<QByteArray> seeds; // a recording of each schema version, 1 to current, as file bytes

void run(sqlite3* db, const QByteArray& sql)
{
    sqlite3_exec(db, sql.constData(), nullptr, nullptr, nullptr); // a refused edit is no edit
}

bool exec(RecordingDatabase& db, const QString& sql)
{
    return !db.exec(sql);
}

RecordEvent event(RecordEvent::Kind kind, const QByteArray& resource, qint64 t, const QByteArray& token)
{
    RecordEvent e;
    e.kind = kind;
    e.resource = resource;
    e.timeMs = t;
    e.token = token;
    e.owner = QStringLiteral("host:1234");
    e.ttlMs = resource.isEmpty() ? -1 : 30000;
    e.holding = resource.isEmpty() ? 0 : 1;
    e.holders = resource.isEmpty() ? 0 : 1;
    e.master = resource.isEmpty() ? 0 : -1;
    return e;
}

RecordEventList story(qint64 t0)
{
    using K = RecordEvent::Kind;
    return {event(K::Seen, "orders", t0, "a1"),
            event(K::Extended, "orders", t0 + 10, "a1"),
            event(K::Acquired, "jobs:1", t0 + 20, "b1"),
            event(K::MasterRestarted, {}, t0 + 30, {}),
            event(K::AtRisk, "orders", t0 + 31, "a1"),
            event(K::Released, "orders", t0 + 40, "a1"),
            event(K::Acquired, "orders", t0 + 50, "a2"),
            event(K::Expired, "jobs:1", t0 + 60, "b1"),
            event(K::Acquired, "orders", t0 + 70, "a3"),
            event(K::Lost, "orders", t0 + 80, "a3"),
            event(K::Acquired, QByteArray("\xff\x00k", 3), t0 + 90, "c"),
            event(K::MasterDown, {}, t0 + 95, {})};
}

// What the writer of this build leaves: two sessions, a killed one's tail and a clean end.
QByteArray currentRecording(const QString& path)
{
    for (int session = 0; session < 2; ++session) {
        RecorderOptions options;
        options.path = path;
        options.maxAgeMs = 0;
        options.maxBytes = 0;
        RecordingWriter writer(options, std::make_shared<RecordingWriter::Counters>());
        writer.start({QStringLiteral("redis://127.0.0.1:6379"), QStringLiteral("redis://127.0.0.1:6380")});
        writer.write(story(1000000 + session * 1000));
        writer.finish();
    }
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// What an older LockScope left, as tests/unit/tst_recordingstore.cpp makes one.
QByteArray olderRecording(const QString& path, int version)
{
    {
        RecordingDatabase db;
        if (db.open(path, false, version))
            return {};
        exec(db,
             QStringLiteral(
                 "INSERT INTO sessions(id, started, last, ended, masters) VALUES(1, 1000, 5000, "
                 "5000, '[\"redis://a:1\",\"redis://b:2\"]'), (2, 7000, 9000, NULL, '[\"redis://a:1\"]')"));
        exec(db, QStringLiteral("INSERT INTO resources(id, name) VALUES(1, CAST('orders' AS BLOB)), (2, "
                                "CAST('jobs' AS BLOB)), (3, CAST('gone' AS BLOB))"));
        exec(db, QStringLiteral(
                     "INSERT INTO events(id, session, t, resource, master, kind, token, owner, ttl, "
                     "holding, holders, detail) VALUES(1, 1, 2000, 1, NULL, 2, 'a1', 'o', 30000, 2, 3, "
                     "NULL), (2, 1, 2100, 2, NULL, 1, 'b1', NULL, NULL, 1, 1, NULL), (3, 1, 2200, NULL, "
                     "0, 22, NULL, NULL, NULL, NULL, NULL, 'run_id a → b'), (4, 1, 3000, 1, NULL, 4, "
                     "'a1', NULL, NULL, 0, 0, NULL), (5, 2, 7500, 1, NULL, 2, 'a2', NULL, 1000, 1, 1, "
                     "NULL), (6, 2, 8000, 2, NULL, 5, 'b1', NULL, NULL, 0, 0, NULL), (7, 2, 8500, 1, "
                     "NULL, 8, 'a2', NULL, NULL, 0, 0, 'forced')"));
        if (version >= 2)
            exec(db, QStringLiteral("UPDATE events SET audit = 'audit-1' WHERE id = 7"));
        if (version >= 5) {
            exec(db,
                 QStringLiteral("UPDATE events SET prev = (SELECT max(e.id) FROM events e WHERE e.resource = "
                                "events.resource AND e.id < events.id) WHERE resource IS NOT NULL"));
            exec(db,
                 QStringLiteral("UPDATE resources SET last = (SELECT max(id) FROM events e WHERE e.resource "
                                "= resources.id)"));
        }
        exec(db, QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    }
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

const char* const tables[] = {"sessions", "resources", "events", "heads_saved"};
const char* const columns[] = {"id",      "session", "t",       "resource", "master", "kind",   "token",
                               "owner",   "ttl",     "holding", "holders",  "detail", "audit",  "prev",
                               "started", "last",    "ended",   "masters",  "name",   "through"};
const char* const values[] = {"NULL",
                              "0",
                              "-1",
                              "1",
                              "2",
                              "3",
                              "7",
                              "9223372036854775807",
                              "-9223372036854775808",
                              "1e308",
                              "'x'",
                              "x'00ff'",
                              "'[\"a\",1,null]'",
                              "'[' || replace(hex(zeroblob(300)), '00', '\"m\",') || '\"m\"]'",
                              "zeroblob(2000000)",
                              "randomblob(64)",
                              "(SELECT max(id) FROM events)",
                              "(SELECT min(id) FROM events)",
                              "id",
                              "id + 1",
                              "id - 1",
                              "'orders'"};
const int kinds[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 21, 22, 23, 24, 30, 0, 99, -2, 2147483647};

template <typename T, size_t n> const T& pick(const T (&list)[n], uint8_t byte)
{
    return list[byte % n];
}

// One edit: an operation and its three operands.
QByteArray edit(const uint8_t* op)
{
    const char* table = pick(tables, op[1]);
    const QByteArray row = QByteArray("rowid IN (SELECT rowid FROM ") + table + " LIMIT 1 OFFSET " +
                           QByteArray::number(op[3] % 16) + ")";
    switch (op[0] % 12) {
    case 0:
        return QByteArray("DELETE FROM ") + table + " WHERE " + row;
    case 1:
        return QByteArray("UPDATE ") + table + " SET " + pick(columns, op[2]) + " = NULL WHERE " + row;
    case 2:
        return QByteArray("UPDATE ") + table + " SET " + pick(columns, op[2]) + " = " + pick(values, op[3]) +
               " WHERE rowid IN (SELECT rowid FROM " + table + " LIMIT 1 OFFSET " +
               QByteArray::number(op[1] % 16) + ")";
    case 3:
        return "UPDATE events SET kind = " + QByteArray::number(pick(kinds, op[2])) +
               " WHERE rowid IN (SELECT rowid FROM events LIMIT 1 OFFSET " + QByteArray::number(op[3] % 16) +
               ")";
    case 4: // chains pointing anywhere
        return "UPDATE events SET prev = " + QByteArray::number(int(op[2]) - 8) +
               " WHERE rowid IN (SELECT rowid FROM events LIMIT 1 OFFSET " + QByteArray::number(op[3] % 16) +
               ")";
    case 5:
        return "UPDATE resources SET last = " + QByteArray::number(int(op[2]) - 8) + " WHERE " + row;
    case 6: {
        static const int versions[] = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 1006, 2147483647, -2147483647};
        return "PRAGMA user_version = " + QByteArray::number(pick(versions, op[2]));
    }
    case 7:
        return QByteArray("DELETE FROM ") + table;
    case 8: {
        static const char* const replacements[] = {
            "CREATE VIEW %1 AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i AS "
            "id, "
            "i AS started, i AS last, NULL AS ended, '[]' AS masters FROM n",
            "CREATE VIEW %1 AS SELECT 1 AS id", "CREATE TABLE %1(id TEXT PRIMARY KEY, x)",
            "CREATE TABLE %1(id)"};
        return QByteArray("DROP TABLE ") + table + "; " +
               QByteArray(pick(replacements, op[2])).replace("%1", table);
    }
    case 9:
        return QByteArray("CREATE TRIGGER t") + QByteArray::number(op[2]) + " AFTER INSERT ON " + table +
               " BEGIN DELETE FROM events; END";
    case 10:
        return "INSERT INTO events(id, session, t, resource, master, kind, token, prev) VALUES(" +
               QByteArray::number(op[1] + 100) + ", " + QByteArray::number(op[2] % 4) + ", " +
               QByteArray::number(op[3] * 100) + ", " + QByteArray::number(op[1] % 5) + ", " +
               QByteArray::number(int(op[2] % 3) - 1) + ", " + QByteArray::number(pick(kinds, op[3])) +
               ", 'a1', " + QByteArray::number(op[2]) + ")";
    default:
        return QByteArray("ALTER TABLE ") + table + " DROP COLUMN " + pick(columns, op[2]);
    }
}

void readAll(const QString& path)
{
    RecordingReader reader;
    if (const RedisError error = reader.open(path)) {
        if (!error.message.contains(path))
            std::abort(); // an error names the file
        return;
    }
    reader.sessions();
    const Result<QList<QByteArray>> resources = reader.resources();
    QList<QByteArray> names = resources ? *resources : QList<QByteArray>();
    names << QByteArrayLiteral("orders");
    for (const QByteArray& name : names.mid(0, 6)) {
        for (const qint64 since : {qint64(-1), qint64(7000)}) {
            const Result<ResourceHistory> history = reader.history(name, since);
            if (!history) {
                if (history.error().message.isEmpty())
                    std::abort();
                continue;
            }
            for (qsizetype i = 1; i < history->events.size(); ++i)
                if (history->events.at(i).event.timeMs < history->events.at(i - 1).event.timeMs)
                    std::abort(); // the story is in time order, whatever the file says
            HistoryJson::text(*history);
            HistoryJson::history(*history);
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    static QCoreApplication app(*argc, *argv);
    scratch = new QTemporaryDir;
    for (int version = 1; version <= RecordingDatabase::schemaVersion; ++version) {
        const QString path = scratch->filePath(QStringLiteral("seed-%1.sqlite").arg(version));
        const QByteArray bytes = version == RecordingDatabase::schemaVersion ? currentRecording(path)
                                                                             : olderRecording(path, version);
        if (bytes.isEmpty())
            std::abort(); // the seeds are the point
        seeds << bytes;
    }
    return 0;
}

// Byte 0 picks the seed (the recording of one schema version), every 4 bytes after it are an edit.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1 || size > 4 * 64 + 1)
        return 0;
    const QString path = scratch->filePath(QStringLiteral("recording.sqlite"));
    for (const char* suffix : {"", "-wal", "-shm"})
        QFile::remove(path + QLatin1String(suffix));
    {
        QFile file(path);
        // Private, as the writer wants it (it refuses a file others can read).
        if (!file.open(QIODevice::WriteOnly) || file.write(seeds.at(data[0] % seeds.size())) < 0 ||
            !file.setPermissions(QFile::ReadOwner | QFile::WriteOwner))
            std::abort();
    }
    sqlite3* db = nullptr;
    if (sqlite3_open(QFile::encodeName(path).constData(), &db) != SQLITE_OK)
        std::abort();
    for (size_t i = 1; i + 4 <= size; i += 4)
        run(db, edit(data + i));
    sqlite3_close(db);
    readAll(path);
    // As `lockctl record` finds it: refused, or written to and read again.
    {
        RecorderOptions options;
        options.path = path;
        options.maxAgeMs = 0;
        options.maxBytes = 0;
        RecordingWriter writer(options, std::make_shared<RecordingWriter::Counters>());
        writer.start({QStringLiteral("redis://127.0.0.1:6379")});
        writer.write(story(20000));
        writer.finish();
    }
    readAll(path);
    return 0;
}
