// SPDX-License-Identifier: Apache-2.0
#include "record/recordingwriter.h"

#include "record/cpustopwatch.h"

#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <utility>

namespace lockscope {

namespace {

// Rows removed per retention step: small enough that a step takes milliseconds, so a batch of
// events waiting behind it is not held back.
constexpr int pruneChunk = 1000;
constexpr int vacuumChunk = 500; // pages given back per step

// One row of `events` has 14 values; rowsPerInsert rows go in one INSERT (a statement's own cost,
// its cursors opened and closed, was as much as a row's).
constexpr int columns = 14;
constexpr int rowsPerInsert = 32;

// Resources met for the first time in a batch are looked up, and the batch's new latest events
// stored, this many to a statement: a statement per resource was a statement's start and end per
// event (a third of the writer's instructions).
constexpr int resourcesPerStatement = 32;
// The resources' latest events are stored this often (and when the session ends), not with every
// batch: a batch touches resources all over the table, and storing their latest events rewrote
// most of its pages at every commit, a third of the writer's time at 5k changes/s. The events
// since (id > heads_saved.through) are the rest of the story, read from the tail by whoever
// needs them (RecordingReader, the next writer).
constexpr qint64 headsSaveIntervalMs = 30000;
constexpr size_t headsSaveAtCount = 100000; // or when this many are waiting

QByteArray findResourcesSql()
{
    QByteArray sql("SELECT id, name, last FROM resources WHERE name IN (?");
    for (int i = 1; i < resourcesPerStatement; ++i)
        sql += ",?";
    return sql + ")";
}

// New resources are inserted, known ones get their latest event; the name is not changed (the
// id conflicts first, and the update sets only `last`).
QByteArray storeHeadsSql(int rows)
{
    QByteArray sql("INSERT OR ROLLBACK INTO resources(id, name, last) VALUES");
    for (int i = 0; i < rows; ++i)
        sql += i == 0 ? "(?,?,?)" : ",(?,?,?)";
    return sql + " ON CONFLICT(id) DO UPDATE SET last = excluded.last";
}

QByteArray insertSql(int rows)
{
    QByteArray sql(
        "INSERT OR ROLLBACK INTO events(id, session, t, resource, master, kind, token, owner, ttl, holding, "
        "holders, detail, audit, prev) VALUES");
    for (int i = 0; i < rows; ++i)
        sql += i == 0 ? "(?,?,?,?,?,?,?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    return sql;
}

// Steps a statement that returns no row and makes it ready again: SQLite's error, or empty.
QString run(SqliteStatement& q)
{
    const QString problem = q.step() ? QString() : q.error();
    q.reset();
    return problem;
}

} // namespace

struct RecordingWriter::Statements
{
    // BEGIN IMMEDIATE: the write lock (waiting on another recorder through the busy timeout) before
    // the next row id and the resources' latest events are read.
    SqliteStatement begin, commit, rollback, dataVersion, maxId, maxResourceId;
    SqliteStatement insertOne, insertMany;
    SqliteStatement findResources, lastOf, storeHeadOne, storeHeadsMany, touchSession;
    SqliteStatement absorbTail, setThrough;

    bool prepare(sqlite3* db)
    {
        return begin.prepare(db, "BEGIN IMMEDIATE") && commit.prepare(db, "COMMIT") &&
               rollback.prepare(db, "ROLLBACK") && dataVersion.prepare(db, "PRAGMA data_version") &&
               maxId.prepare(db, "SELECT coalesce(max(id), 0) FROM events") &&
               maxResourceId.prepare(db, "SELECT coalesce(max(id), 0) FROM resources") &&
               insertOne.prepare(db, insertSql(1).constData()) &&
               insertMany.prepare(db, insertSql(rowsPerInsert).constData()) &&
               findResources.prepare(db, findResourcesSql().constData()) &&
               lastOf.prepare(db, "SELECT last FROM resources WHERE id = ?") &&
               storeHeadOne.prepare(db, storeHeadsSql(1).constData()) &&
               storeHeadsMany.prepare(db, storeHeadsSql(resourcesPerStatement).constData()) &&
               absorbTail.prepare(db,
                                  "UPDATE resources SET last = t.m FROM (SELECT resource, max(id) AS m FROM "
                                  "events WHERE id > (SELECT through FROM heads_saved) AND resource IS NOT "
                                  "NULL GROUP BY resource) AS t WHERE resources.id = t.resource AND "
                                  "(resources.last IS NULL OR resources.last < t.m)") &&
               setThrough.prepare(
                   db, "UPDATE heads_saved SET through = (SELECT coalesce(max(id), 0) FROM events)") &&
               touchSession.prepare(db, "UPDATE sessions SET last = ? WHERE id = ?");
    }
};

RecordingWriter::RecordingWriter(RecorderOptions options, std::shared_ptr<Counters> counters)
    : RecordingSink(options, std::move(counters)), m_options(std::move(options))
{}

RecordingWriter::~RecordingWriter()
{
    closeQueries();
}

void RecordingWriter::closeQueries()
{
    m_sql.reset(); // before the connection they belong to
}

void RecordingWriter::start(const QStringList& masterNames)
{
    m_masterNames = masterNames;
    m_db = std::make_unique<RecordingDatabase>();
    RedisError error =
        m_db->open(m_options.path, false, RecordingDatabase::schemaVersion, m_options.allowShared);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (!error) {
        QSqlQuery q(m_db->db());
        q.prepare(
            QStringLiteral("INSERT INTO sessions(started, last, masters, recorder) VALUES(?, ?, ?, ?)"));
        q.addBindValue(now);
        q.addBindValue(now);
        q.addBindValue(mastersJson(m_masterNames));
        q.addBindValue(recorderName());
        if (q.exec())
            m_session = q.lastInsertId().toLongLong();
        else
            error = m_db->error(QStringLiteral("cannot begin a session"), q.lastError().text());
    }
    if (error) {
        m_db.reset();
        emit opened(error);
        return;
    }
    m_sql = std::make_unique<Statements>();
    if (!m_sql->prepare(SqliteStatement::handle(m_db->db()))) {
        const RedisError prepareError = m_db->error(QStringLiteral("cannot prepare"), m_sql->begin.error());
        closeQueries();
        m_db.reset();
        emit opened(prepareError);
        return;
    }
    sessionBegan();
}

QString RecordingWriter::learnResources(const RecordEventList& events)
{
    // The batch's resources this writer has not met, each once: entered at once, marked as asked
    // (`asking`), so that a name costs one lookup here (a first pass brings 100k of them, and each
    // lookup hashes the name again), and given their ids below. Should that fail, the batch is
    // rolled back and the whole table forgotten (transact()), the names being asked with it.
    std::vector<const QByteArray*> unknown;
    for (const RecordEvent& e : events) {
        if (e.resource.isEmpty())
            continue;
        const qsizetype before = m_resources.size();
        if (Known& k = m_resources[e.resource]; m_resources.size() != before) {
            k.newAt = asking;
            unknown.push_back(&e.resource);
        }
    }
    if (unknown.empty())
        return {};
    SqliteStatement& find = m_sql->findResources;
    for (size_t i = 0; i < unknown.size(); i += resourcesPerStatement) {
        // A short last group repeats its last name (IN does not mind).
        for (int p = 0; p < resourcesPerStatement; ++p)
            find.bindBlobInPlace(p + 1, *unknown[std::min(i + size_t(p), unknown.size() - 1)]);
        bool ok = true;
        while ((ok = find.step()) && find.hasRow())
            m_resources[find.columnBlob(1)] = {find.columnInt(0), find.columnInt(2), m_lastGeneration};
        const QString problem = ok ? QString() : find.error();
        find.reset();
        if (!ok)
            return problem;
    }
    // The rest are new: ids given here under the write lock, as the events' are, and stored with
    // the batch's heads.
    if (!m_sql->maxResourceId.step())
        return run(m_sql->maxResourceId);
    const qint64 largestResource = m_sql->maxResourceId.columnInt(0);
    m_sql->maxResourceId.reset();
    if (QString problem = RecordingSink::idsRunOut("resource", largestResource, qsizetype(unknown.size()));
        !problem.isEmpty())
        return problem;
    qint64 next = largestResource + 1;
    for (const QByteArray* name : unknown)
        if (Known& k = m_resources[*name]; k.newAt == asking) {
            k = {next, 0, m_lastGeneration, int(m_newResources.size())};
            m_newResources.push_back({next++, 0, name});
        }
    return {};
}

std::optional<RecordingWriter::Link> RecordingWriter::link(const QByteArray& name, qint64 id)
{
    // One lookup per event: the id, the latest event and this batch's change of it live together.
    const auto known = m_resources.find(name);
    if (known == m_resources.end())
        return std::nullopt; // learnResources() met every resource of the batch
    Known& k = known.value();
    Link link{k.id, k.last};
    if (k.lastOf != m_lastGeneration) {
        SqliteStatement& lastOf = m_sql->lastOf;
        lastOf.bindInt(1, k.id);
        if (!lastOf.step()) {
            lastOf.reset();
            return std::nullopt;
        }
        link.prev = lastOf.hasRow() ? lastOf.columnInt(0) : 0;
        lastOf.reset();
        k.lastOf = m_lastGeneration;
    }
    k.last = id;
    if (k.newAt >= 0 && k.newAt < int(m_newResources.size()) &&
        m_newResources[size_t(k.newAt)].resource == k.id) {
        m_newResources[size_t(k.newAt)].last = id; // stored with its row at the end of the batch
    } else if (!k.unsaved) {
        k.unsaved = true;
        m_unsaved.push_back(name);
    }
    return link;
}

bool RecordingWriter::bindRow(SqliteStatement& q, int first, const RecordEvent& e, qint64 id)
{
    if (e.resource.isEmpty()) {
        q.bindNull(first + 4);
        q.bindNull(first + 14);
    } else {
        const std::optional<Link> link = this->link(e.resource, id);
        if (!link)
            return false;
        m_batch.previous[id - m_batch.firstId] = link->prev;
        q.bindInt(first + 4, link->resource);
        link->prev > 0 ? q.bindInt(first + 14, link->prev) : q.bindNull(first + 14);
    }
    const bool master = e.isMasterEvent();
    q.bindInt(first + 1, id);
    q.bindInt(first + 2, m_session);
    q.bindInt(first + 3, e.timeMs);
    e.master >= 0 ? q.bindInt(first + 5, e.master) : q.bindNull(first + 5);
    q.bindInt(first + 6, int(e.kind));
    master || e.token.isNull() ? q.bindNull(first + 7) : q.bindBlobInPlace(first + 7, e.token);
    q.bindText(first + 8, storedText(e.owner));
    e.ttlMs >= 0 ? q.bindInt(first + 9, e.ttlMs) : q.bindNull(first + 9);
    master ? q.bindNull(first + 10) : q.bindInt(first + 10, e.holding);
    master ? q.bindNull(first + 11) : q.bindInt(first + 11, qint64(e.holders));
    q.bindText(first + 12, storedText(e.detail));
    q.bindText(first + 13, e.auditId);
    return true;
}

QString RecordingWriter::insertAll(const RecordEventList& events)
{
    Statements& q = *m_sql;
    // Another recorder wrote since our last batch: the latest events we know may not be.
    if (!q.dataVersion.step())
        return run(q.dataVersion);
    const qint64 version = q.dataVersion.columnInt(0);
    q.dataVersion.reset();
    if (version != m_dataVersion) {
        // The file's latest events complete (another writer's tail, or one a killed session left),
        // and every one we know to be read again.
        if (const QString problem = absorbTail(); !problem.isEmpty())
            return problem;
        ++m_lastGeneration;
    }
    m_dataVersion = version;
    // Row ids given here, not by SQLite, so that an event's id is known before it is inserted (the
    // next event of its resource names it). The write lock is ours: nobody takes them meanwhile.
    if (!q.maxId.step())
        return run(q.maxId);
    const qint64 largestEvent = q.maxId.columnInt(0);
    q.maxId.reset();
    if (QString problem = RecordingSink::idsRunOut("event", largestEvent, events.size()); !problem.isEmpty())
        return problem;
    qint64 next = largestEvent + 1;
    m_batch.firstId = next;
    m_batch.previous.fill(0, events.size());
    m_newResources.clear();
    if (const QString problem = learnResources(events); !problem.isEmpty())
        return problem;
    for (qsizetype i = 0; i < events.size();) {
        const int rows = events.size() - i >= rowsPerInsert ? rowsPerInsert : 1;
        SqliteStatement& insert = rows > 1 ? q.insertMany : q.insertOne;
        for (int row = 0; row < rows; ++row, ++i)
            if (!bindRow(insert, row * columns, events.at(i), next++))
                return q.lastOf.error();
        if (const QString problem = run(insert); !problem.isEmpty())
            return problem;
    }
    if (const QString problem = storeHeads(m_newResources); !problem.isEmpty())
        return problem;
    m_newResources.clear();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (now - m_headsSavedMs >= headsSaveIntervalMs || m_unsaved.size() >= headsSaveAtCount)
        return saveHeads();
    return {};
}

QString RecordingWriter::absorbTail()
{
    if (const QString problem = run(m_sql->absorbTail); !problem.isEmpty())
        return problem;
    if (const QString problem = run(m_sql->setThrough); !problem.isEmpty())
        return problem;
    // Ours were in that tail too.
    headsSaved();
    return {};
}

void RecordingWriter::headsSaved()
{
    for (const QByteArray& name : std::as_const(m_unsaved))
        if (const auto it = m_resources.find(name); it != m_resources.end())
            it->unsaved = false;
    m_unsaved.clear();
    m_headsSavedMs = QDateTime::currentMSecsSinceEpoch();
}

QString RecordingWriter::saveHeads()
{
    std::vector<Head> heads;
    heads.reserve(m_unsaved.size());
    for (const QByteArray& name : std::as_const(m_unsaved))
        if (const auto it = m_resources.find(name); it != m_resources.end() && it->unsaved)
            heads.push_back({it->id, it->last, &name});
    if (const QString problem = storeHeads(heads); !problem.isEmpty())
        return problem;
    // Nobody else wrote since the batch began (absorbTail() ran otherwise): every event is now
    // reachable from its resource's stored latest.
    if (const QString problem = run(m_sql->setThrough); !problem.isEmpty())
        return problem;
    headsSaved();
    return {};
}

QString RecordingWriter::storeHeads(const std::vector<Head>& heads)
{
    // New resources and new latest events of known ones, resourcesPerStatement to an upsert.
    for (size_t i = 0; i < heads.size();) {
        const int rows = heads.size() - i >= size_t(resourcesPerStatement) ? resourcesPerStatement : 1;
        SqliteStatement& store = rows > 1 ? m_sql->storeHeadsMany : m_sql->storeHeadOne;
        for (int row = 0; row < rows; ++row, ++i) {
            const Head& h = heads[i];
            store.bindInt(row * 3 + 1, h.resource);
            store.bindBlobInPlace(row * 3 + 2, *h.name);
            store.bindInt(row * 3 + 3, h.last);
        }
        if (const QString problem = run(store); !problem.isEmpty())
            return problem;
    }
    return {};
}

QString RecordingWriter::transact(const RecordEventList& events)
{
    Statements& q = *m_sql;
    if (const QString problem = run(q.begin); !problem.isEmpty())
        return problem;
    QString problem = insertAll(events);
    m_lastCommitMs = QDateTime::currentMSecsSinceEpoch();
    if (problem.isEmpty()) {
        q.touchSession.bindInt(1, m_lastCommitMs);
        q.touchSession.bindInt(2, m_session);
        problem = run(q.touchSession);
    }
    if (problem.isEmpty())
        problem = run(q.commit);
    if (!problem.isEmpty()) {
        run(q.rollback);
        // Ids and latest events written in the rolled-back transaction are gone; the next batch
        // starts from the file (its tail included).
        m_resources.clear();
        m_newResources.clear();
        m_unsaved.clear();
        m_dataVersion = -1;
    }
    return problem;
}

void RecordingWriter::write(const RecordEventList& events)
{
    const CpuStopwatch cpu(m_counters->writeCpuNs);
    if (!m_db) {
        m_counters->backlog -= events.size();
        m_counters->dropped += events.size();
        return;
    }
    const QString problem = transact(events);
    m_counters->backlog -= events.size();
    if (problem.isEmpty()) {
        m_failing = false;
        tellCommitted(events, m_batch, m_session, int(m_masterNames.size()));
        return;
    }
    m_counters->dropped += events.size();
    if (!m_failing)
        emit failed(m_db->error(QStringLiteral("cannot record"), problem));
    m_failing = true;
}

void RecordingWriter::finish()
{
    const CpuStopwatch cpu(m_counters->writeCpuNs); // the stored latest events are part of the cost
    stopTimers();
    if (!m_db)
        return;
    heartbeat(); // a force-release written just now still belongs to this session
    if (!m_unsaved.empty() && run(m_sql->begin).isEmpty()) {
        // Under the write lock: when another writer wrote since our last batch, its tail is taken
        // in with ours. On failure they stay in the tail, where readers find them.
        Statements& q = *m_sql;
        const bool alone = q.dataVersion.step() && q.dataVersion.columnInt(0) == m_dataVersion;
        q.dataVersion.reset();
        const QString problem = alone ? saveHeads() : absorbTail();
        run(problem.isEmpty() ? q.commit : q.rollback);
    }
    endSession(m_db->db(), m_session);
    closeQueries();
    m_db->exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    m_db.reset();
}

void RecordingWriter::pruneNow()
{
    if (m_pruning || !m_db)
        return;
    m_pruning = true;
    m_prunedThisPass = 0;
    pruneStep();
}

qint64 RecordingWriter::usedBytes()
{
    const qint64 pages = m_db->scalar(QStringLiteral("PRAGMA page_count")).toLongLong();
    const qint64 free = m_db->scalar(QStringLiteral("PRAGMA freelist_count")).toLongLong();
    return (pages - free) * m_db->scalar(QStringLiteral("PRAGMA page_size")).toLongLong();
}

void RecordingWriter::pruneStep()
{
    const CpuStopwatch cpu(m_counters->writeCpuNs);
    if (!m_db) {
        m_pruning = false;
        return;
    }
    QSqlQuery q(m_db->db());
    int removed = 0;
    if (m_options.maxAgeMs > 0) {
        q.prepare(QStringLiteral(
                      "DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id LIMIT %1) AND t < ?")
                      .arg(pruneChunk));
        q.addBindValue(QDateTime::currentMSecsSinceEpoch() - m_options.maxAgeMs);
        if (q.exec())
            removed = q.numRowsAffected();
    }
    if (removed == 0 && m_options.maxBytes > 0 && usedBytes() > m_options.maxBytes) {
        q.prepare(
            QStringLiteral("DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id LIMIT %1)")
                .arg(pruneChunk));
        if (q.exec())
            removed = q.numRowsAffected();
    }
    if (removed > 0) {
        m_prunedThisPass += removed;
        m_counters->pruned += removed;
        // The next step after whatever batches are waiting: pruning never holds recording back.
        QTimer::singleShot(0, this, &RecordingWriter::pruneStep);
        return;
    }
    if (m_prunedThisPass > 0) {
        // Sessions that ended before the oldest event left are gaps in nothing.
        m_db->exec(QStringLiteral("DELETE FROM sessions WHERE id <> %1 AND last < coalesce((SELECT t FROM "
                                  "events ORDER BY id LIMIT 1), %2)")
                       .arg(m_session)
                       .arg(QDateTime::currentMSecsSinceEpoch()));
        vacuumStep();
        return;
    }
    m_pruning = false;
    emit pruneFinished(0);
}

void RecordingWriter::vacuumStep()
{
    const CpuStopwatch cpu(m_counters->writeCpuNs);
    if (!m_db) {
        m_pruning = false;
        return;
    }
    // Give the space back, so the file shrinks and not only its free list grows. Through Qt SQL
    // one PRAGMA incremental_vacuum frees one page (Qt steps it once), so a step frees a few
    // hundred in one transaction and yields to waiting batches, like the deletes.
    QSqlDatabase& db = m_db->db();
    db.transaction();
    for (int i = 0; i < vacuumChunk; ++i)
        if (m_db->exec(QStringLiteral("PRAGMA incremental_vacuum(1)")))
            break;
    db.commit();
    if (m_db->scalar(QStringLiteral("PRAGMA freelist_count")).toLongLong() > 0) {
        QTimer::singleShot(0, this, &RecordingWriter::vacuumStep);
        return;
    }
    m_db->exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    m_pruning = false;
    emit pruneFinished(m_prunedThisPass);
}

} // namespace lockscope
