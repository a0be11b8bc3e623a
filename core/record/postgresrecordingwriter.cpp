// SPDX-License-Identifier: Apache-2.0
#include "record/postgresrecordingwriter.h"

#include "record/cpustopwatch.h"
#include "record/teameventtable.h"

#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <utility>

namespace lockscope {

namespace {

// At most this many held events go in one transaction when the database is back.
constexpr qsizetype heldPerTransaction = 20000;
// Rows removed per retention step, as on SQLite.
constexpr int pruneChunk = 1000;
// While the database fails, a write is tried again at most this often.
constexpr qint64 retryIntervalMs = 1000;

QString sqlProblem(const QSqlQuery& q)
{
    const QSqlError e = q.lastError();
    const QString detail = e.databaseText().trimmed();
    return detail.isEmpty() ? e.text().trimmed() : detail;
}

} // namespace

PostgresRecordingWriter::PostgresRecordingWriter(RecorderOptions options, std::shared_ptr<Counters> counters)
    : RecordingSink(options, std::move(counters)), m_options(std::move(options))
{}

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
    m_events = std::make_unique<TeamEventTable>(*m_db);
    sessionBegan();
}

QString PostgresRecordingWriter::insertAll(const RecordEventList& events)
{
    if (QString problem = m_events->takeIds(events.size(), &m_batch.firstId); !problem.isEmpty())
        return problem;
    return m_events->insert(events, m_batch.firstId, {m_session}, &m_batch.previous);
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
        m_events->finished(true);
        return {};
    }
    db.rollback();
    m_events->finished(false);
    return problem;
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
        m_events->finished(false); // a new connection: all read again from the database
    }
    while (!m_held.isEmpty()) {
        const RecordEventList part = m_held.mid(0, heldPerTransaction);
        if (const QString problem = transact(part); !problem.isEmpty()) {
            startFailing(problem);
            return false;
        }
        m_held.remove(0, part.size());
        m_counters->backlog -= part.size();
        tellCommitted(part, m_batch, m_session, int(m_masterNames.size()));
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
        tellCommitted(events, m_batch, m_session, int(m_masterNames.size()));
        return;
    }
    startFailing(problem);
    hold(events);
}

void PostgresRecordingWriter::startFailing(const QString& problem)
{
    if (!m_failing)
        emit failed(
            failure(QStringLiteral("cannot record: %1 (up to %2 events are kept in memory and written "
                                   "when it is back)")
                        .arg(problem)
                        .arg(maxHeldEvents)));
    m_failing = true;
    m_lastRetryMs = QDateTime::currentMSecsSinceEpoch();
}

bool PostgresRecordingWriter::quietWriteDue() const
{
    return m_failing || RecordingSink::quietWriteDue(); // a failing database is tried again
}

void PostgresRecordingWriter::finish()
{
    const CpuStopwatch cpu(m_counters->writeCpuNs);
    stopTimers();
    if (!m_db)
        return;
    heartbeat(); // a force-release written just now still belongs to this session
    m_lastRetryMs = 0;
    if (!m_held.isEmpty() && !writeHeld()) {
        m_counters->dropped += m_held.size();
        m_counters->backlog -= m_held.size();
        m_held.clear();
    }
    endSession(m_db->db(), m_session);
    TeamEventTable::announce(m_db->db()); // a window reviewing it draws its open episodes to here
    m_events.reset();
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
