// SPDX-License-Identifier: Apache-2.0
#include "record/postgresrecordingwriter.h"

#include "record/cpustopwatch.h"

#include <QDateTime>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <utility>

namespace lockscope {

namespace {

// One row of `events` has 13 values; this many rows go in one INSERT (a statement per row was a
// round trip per event), and as many resources in one lookup.
constexpr int columns = 13;
constexpr int rowsPerInsert = 250;
constexpr int resourcesPerStatement = 500;
// At most this many held events go in one transaction when the database is back.
constexpr qsizetype heldPerTransaction = 20000;
// Rows removed per retention step, as on SQLite.
constexpr int pruneChunk = 1000;
// While the database fails, a write is tried again at most this often.
constexpr qint64 retryIntervalMs = 1000;
// pg_advisory_xact_lock's key for taking event ids: "LSevents".
constexpr qint64 eventIdsLockKey = 0x4c536576656e7473;

QString placeholders(int rows, int perRow)
{
    QString row = QStringLiteral("(?");
    for (int i = 1; i < perRow; ++i)
        row += QStringLiteral(",?");
    row += QLatin1Char(')');
    QString out = row;
    for (int i = 1; i < rows; ++i)
        out += QLatin1Char(',') + row;
    return out;
}

QVariant nullable(bool isNull, qint64 value)
{
    return isNull ? QVariant(QMetaType::fromType<qint64>()) : QVariant(value);
}

QVariant text(const QString& value)
{
    return value.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(value);
}

QString sqlProblem(const QSqlQuery& q)
{
    const QSqlError e = q.lastError();
    const QString detail = e.databaseText().trimmed();
    return detail.isEmpty() ? e.text().trimmed() : detail;
}

} // namespace

PostgresRecordingWriter::PostgresRecordingWriter(RecorderOptions options, std::shared_ptr<Counters> counters)
    : m_options(std::move(options)), m_counters(std::move(counters)), m_audit(m_options.auditLogPath)
{
    m_heartbeat.setParent(this);
    m_pruneTimer.setParent(this);
}

PostgresRecordingWriter::~PostgresRecordingWriter() = default;

RedisError PostgresRecordingWriter::failure(const QString& problem) const
{
    return {ErrorKind::Io, QString(),
            QStringLiteral("recording %1: %2").arg(m_db ? m_db->url().toString() : QString(), problem)};
}

void PostgresRecordingWriter::start(const QStringList& masterNames)
{
    m_masterNames = masterNames;
    const Result<TeamDatabaseUrl> url = TeamDatabaseUrl::parse(m_options.path);
    if (!url) {
        emit opened(url.error());
        return;
    }
    m_db = std::make_unique<TeamDatabase>();
    if (const RedisError e = m_db->open(*url, m_options.databasePassword); e.isError()) {
        m_db.reset();
        emit opened(e);
        return;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QSqlQuery q(m_db->db());
    q.prepare(QStringLiteral(
        "INSERT INTO sessions(started, last, masters, recorder) VALUES(?, ?, ?, ?) RETURNING id"));
    q.addBindValue(now);
    q.addBindValue(now);
    q.addBindValue(mastersJson(m_masterNames));
    q.addBindValue(recorderName());
    if (!q.exec() || !q.next()) {
        const RedisError e = m_db->error(QStringLiteral("cannot begin a session"), q.lastError());
        m_db.reset();
        emit opened(e);
        return;
    }
    m_session = q.value(0).toLongLong();
    m_lastCommitMs = now;
    m_audit.skipToEnd();
    connect(&m_heartbeat, &QTimer::timeout, this, &PostgresRecordingWriter::heartbeat);
    m_heartbeat.start(qMax(50, m_options.auditPollMs));
    connect(&m_pruneTimer, &QTimer::timeout, this, &PostgresRecordingWriter::pruneNow);
    m_pruneTimer.start(qMax(100, m_options.pruneIntervalMs));
    emit opened({});
    pruneNow();
}

QString PostgresRecordingWriter::learnResources(const RecordEventList& events)
{
    QList<QByteArray> unknown;
    QSet<QByteArray> asked;
    for (const RecordEvent& e : events)
        if (!e.resource.isEmpty() && !m_resourceIds.contains(e.resource) && !asked.contains(e.resource)) {
            asked.insert(e.resource);
            unknown << e.resource;
        }
    for (qsizetype from = 0; from < unknown.size(); from += resourcesPerStatement) {
        const int n = int(qMin<qsizetype>(resourcesPerStatement, unknown.size() - from));
        QSqlQuery q(m_db->db());
        // Made when new; another recorder may make the same one at the same time (its row wins).
        q.prepare(QStringLiteral("INSERT INTO resources(name) VALUES %1 ON CONFLICT (name) DO NOTHING")
                      .arg(placeholders(n, 1)));
        for (int i = 0; i < n; ++i)
            q.addBindValue(unknown.at(from + i));
        if (!q.exec())
            return sqlProblem(q);
        q.prepare(QStringLiteral("SELECT id, name FROM resources WHERE name IN %1").arg(placeholders(1, n)));
        for (int i = 0; i < n; ++i)
            q.addBindValue(unknown.at(from + i));
        if (!q.exec())
            return sqlProblem(q);
        while (q.next())
            m_resourceIds.insert(q.value(1).toByteArray(), q.value(0).toLongLong());
    }
    return learnLatest(events);
}

QString PostgresRecordingWriter::learnLatest(const RecordEventList& events)
{
    QList<qint64> unknown;
    QSet<qint64> asked;
    for (const RecordEvent& e : events) {
        const qint64 id = e.resource.isEmpty() ? -1 : m_resourceIds.value(e.resource, -1);
        if (id >= 0 && !m_lastEvent.contains(id) && !asked.contains(id)) {
            asked.insert(id);
            unknown << id;
        }
    }
    for (qsizetype from = 0; from < unknown.size(); from += resourcesPerStatement) {
        const int n = int(qMin<qsizetype>(resourcesPerStatement, unknown.size() - from));
        QSqlQuery q(m_db->db());
        q.prepare(
            QStringLiteral("SELECT resource, max(id) FROM events WHERE resource IN %1 GROUP BY resource")
                .arg(placeholders(1, n)));
        for (int i = 0; i < n; ++i)
            q.addBindValue(unknown.at(from + i));
        if (!q.exec())
            return sqlProblem(q);
        for (int i = 0; i < n; ++i)
            m_lastEvent.insert(unknown.at(from + i), 0); // none yet, unless read below
        while (q.next())
            m_lastEvent.insert(q.value(0).toLongLong(), q.value(1).toLongLong());
    }
    return {};
}

QString PostgresRecordingWriter::insertRows(const RecordEventList& events, qsizetype from, qsizetype rows)
{
    QSqlQuery q(m_db->db());
    q.prepare(QStringLiteral("INSERT INTO events(id, session, t, resource, master, kind, token, owner, ttl, "
                             "holding, holders, detail, audit) VALUES %1")
                  .arg(placeholders(int(rows), columns)));
    for (qsizetype i = from; i < from + rows; ++i) {
        const RecordEvent& e = events.at(i);
        const bool master = e.isMasterEvent();
        const qint64 id = m_batch.firstId + i;
        qint64 resource = -1;
        if (!e.resource.isEmpty()) {
            resource = m_resourceIds.value(e.resource, -1);
            if (resource < 0)
                return QStringLiteral("a resource of the batch could not be named");
            qint64& last = m_lastEvent[resource];
            m_batch.previous[i] = last;
            last = id;
        }
        q.addBindValue(id);
        q.addBindValue(m_session);
        q.addBindValue(e.timeMs);
        q.addBindValue(nullable(resource < 0, resource));
        q.addBindValue(nullable(e.master < 0, e.master));
        q.addBindValue(int(e.kind));
        q.addBindValue(master || e.token.isNull() ? QVariant(QMetaType::fromType<QByteArray>())
                                                  : QVariant(e.token));
        // Text went through escapeText on its way here; PostgreSQL's text takes no NUL, which
        // escaped text never holds.
        q.addBindValue(text(storedText(e.owner)));
        q.addBindValue(nullable(e.ttlMs < 0, e.ttlMs));
        q.addBindValue(nullable(master, e.holding));
        q.addBindValue(nullable(master, qint64(e.holders)));
        q.addBindValue(text(storedText(e.detail)));
        q.addBindValue(text(e.auditId));
    }
    return q.exec() ? QString() : sqlProblem(q);
}

QString PostgresRecordingWriter::insertAll(const RecordEventList& events)
{
    QSqlQuery q(m_db->db());
    // One writer at a time takes ids, until it commits: ids follow commit order.
    if (!q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(eventIdsLockKey)))
        return sqlProblem(q);
    if (!q.exec(QStringLiteral("SELECT coalesce(max(id), 0) FROM events")) || !q.next())
        return sqlProblem(q);
    const qint64 largest = q.value(0).toLongLong();
    if (QString problem = idsRunOut("event", largest, events.size()); !problem.isEmpty())
        return problem;
    // Another recorder wrote since our last batch (or this is our first): the latest events we
    // know may not be the latest; each resource's is read again when the batch names it.
    if (largest != m_lastId)
        m_lastEvent.clear();
    m_batch.firstId = largest + 1;
    m_batch.previous.fill(0, events.size());
    if (QString problem = learnResources(events); !problem.isEmpty())
        return problem;
    for (qsizetype from = 0; from < events.size(); from += rowsPerInsert)
        if (QString problem = insertRows(events, from, qMin<qsizetype>(rowsPerInsert, events.size() - from));
            !problem.isEmpty())
            return problem;
    return {};
}

QString PostgresRecordingWriter::transact(const RecordEventList& events)
{
    QSqlDatabase& db = m_db->db();
    if (!db.transaction()) {
        const QString detail = db.lastError().databaseText().trimmed();
        return detail.isEmpty() ? db.lastError().text() : detail;
    }
    QString problem = events.isEmpty() ? QString() : insertAll(events);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (problem.isEmpty()) {
        QSqlQuery touch(db);
        touch.prepare(QStringLiteral("UPDATE sessions SET last = ? WHERE id = ?"));
        touch.addBindValue(now);
        touch.addBindValue(m_session);
        if (!touch.exec())
            problem = sqlProblem(touch);
    }
    if (problem.isEmpty() && !db.commit())
        problem = db.lastError().text();
    if (problem.isEmpty()) {
        m_lastCommitMs = now;
        if (!events.isEmpty())
            m_lastId = m_batch.firstId + events.size() - 1;
        return {};
    }
    db.rollback();
    // Resources made and events written in the rolled-back transaction are gone: both are read
    // again next time.
    m_resourceIds.clear();
    m_lastEvent.clear();
    m_lastId = -1;
    return problem;
}

void PostgresRecordingWriter::committedBatch(const RecordEventList& events)
{
    m_counters->written += events.size();
    if (events.isEmpty())
        return;
    m_batch.events = events;
    m_batch.session = m_session;
    m_batch.masters = int(m_masterNames.size());
    emit committed(std::exchange(m_batch, {}));
}

void PostgresRecordingWriter::hold(const RecordEventList& events)
{
    m_held += events;
    if (const qsizetype over = m_held.size() - maxHeldEvents; over > 0) {
        m_held.remove(0, over);
        m_counters->dropped += over;
        m_counters->backlog -= over;
    }
}

bool PostgresRecordingWriter::writeHeld()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (m_failing) {
        if (now - m_lastRetryMs < retryIntervalMs)
            return false;
        m_lastRetryMs = now;
        if (const RedisError e = m_db->ensureOpen(); e.isError())
            return false;
        m_resourceIds.clear(); // a new connection: named again from the database
    }
    while (!m_held.isEmpty()) {
        const RecordEventList part = m_held.mid(0, heldPerTransaction);
        if (const QString problem = transact(part); !problem.isEmpty()) {
            if (!m_failing)
                emit failed(
                    failure(QStringLiteral("cannot record: %1 (up to %2 events are kept in memory and "
                                           "written when it is back)")
                                .arg(problem)
                                .arg(maxHeldEvents)));
            m_failing = true;
            m_lastRetryMs = now;
            return false;
        }
        m_held.remove(0, part.size());
        m_counters->backlog -= part.size();
        committedBatch(part);
    }
    m_failing = false;
    return true;
}

void PostgresRecordingWriter::write(const RecordEventList& events)
{
    const CpuStopwatch cpu(m_counters->writeCpuNs);
    if (!m_db) {
        m_counters->backlog -= events.size();
        m_counters->dropped += events.size();
        return;
    }
    if (!m_held.isEmpty() || m_failing) {
        hold(events);
        writeHeld();
        return;
    }
    const QString problem = transact(events);
    if (problem.isEmpty()) {
        m_counters->backlog -= events.size();
        committedBatch(events);
        return;
    }
    emit failed(failure(QStringLiteral("cannot record: %1 (up to %2 events are kept in memory and written "
                                       "when it is back)")
                            .arg(problem)
                            .arg(maxHeldEvents)));
    m_failing = true;
    m_lastRetryMs = QDateTime::currentMSecsSinceEpoch();
    hold(events);
}

void PostgresRecordingWriter::heartbeat()
{
    if (!m_db)
        return;
    RecordEventList audited = m_audit.poll();
    if (!audited.isEmpty()) {
        m_counters->backlog += audited.size();
        write(audited);
    } else if (m_failing || QDateTime::currentMSecsSinceEpoch() - m_lastCommitMs >= 1000) {
        // A quiet second still moves the session's end; a failing database is tried again.
        write({});
    }
}

void PostgresRecordingWriter::finish()
{
    const CpuStopwatch cpu(m_counters->writeCpuNs);
    m_heartbeat.stop();
    m_pruneTimer.stop();
    if (!m_db)
        return;
    heartbeat(); // a force-release written just now still belongs to this session
    m_lastRetryMs = 0;
    if (!m_held.isEmpty() && !writeHeld()) {
        m_counters->dropped += m_held.size();
        m_counters->backlog -= m_held.size();
        m_held.clear();
    }
    QSqlQuery q(m_db->db());
    q.prepare(QStringLiteral("UPDATE sessions SET last = ?, ended = ? WHERE id = ?"));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    q.addBindValue(now);
    q.addBindValue(now);
    q.addBindValue(m_session);
    q.exec();
    m_db.reset();
}

void PostgresRecordingWriter::pruneNow()
{
    if (m_pruning || !m_db || m_failing || m_options.maxAgeMs <= 0)
        return;
    m_pruning = true;
    m_prunedThisPass = 0;
    pruneStep();
}

void PostgresRecordingWriter::pruneStep()
{
    const CpuStopwatch cpu(m_counters->writeCpuNs);
    if (!m_db || m_failing) {
        m_pruning = false;
        return;
    }
    QSqlQuery q(m_db->db());
    // Ids follow time: the oldest rows, a step at a time, while they are older than the limit.
    q.prepare(QStringLiteral("DELETE FROM events WHERE id IN (SELECT id FROM events ORDER BY id LIMIT %1) "
                             "AND t < ?")
                  .arg(pruneChunk));
    q.addBindValue(QDateTime::currentMSecsSinceEpoch() - m_options.maxAgeMs);
    const int removed = q.exec() ? q.numRowsAffected() : 0;
    if (removed > 0) {
        m_prunedThisPass += removed;
        m_counters->pruned += removed;
        QTimer::singleShot(0, this, &PostgresRecordingWriter::pruneStep);
        return;
    }
    if (m_prunedThisPass > 0) {
        // Sessions that ended before the oldest event left are gaps in nothing.
        q.prepare(QStringLiteral("DELETE FROM sessions WHERE id <> ? AND last < "
                                 "coalesce((SELECT t FROM events ORDER BY id LIMIT 1), ?)"));
        q.addBindValue(m_session);
        q.addBindValue(QDateTime::currentMSecsSinceEpoch());
        q.exec();
    }
    m_pruning = false;
    emit pruneFinished(m_prunedThisPass);
}

} // namespace lockscope
