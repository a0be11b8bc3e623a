#include "record/recordingwriter.h"

#include "record/cpustopwatch.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QVariant>

namespace lockscope {

namespace {

// Rows removed per retention step: small enough that a step takes milliseconds, so a batch of
// events waiting behind it is not held back.
constexpr int pruneChunk = 1000;
constexpr int vacuumChunk = 500; // pages given back per step

} // namespace

RecordingWriter::RecordingWriter(RecorderOptions options, std::shared_ptr<Counters> counters)
    : m_options(std::move(options)), m_counters(std::move(counters)), m_audit(m_options.auditLogPath)
{
    m_heartbeat.setParent(this);
    m_pruneTimer.setParent(this);
}

RecordingWriter::~RecordingWriter()
{
    closeQueries();
}

void RecordingWriter::closeQueries()
{
    // Before the connection they belong to.
    m_insert.reset();
    m_addResource.reset();
    m_findResource.reset();
    m_touchSession.reset();
}

void RecordingWriter::start(const QStringList& masterNames)
{
    m_masterNames = masterNames;
    m_db = std::make_unique<RecordingDatabase>();
    RedisError error = m_db->open(m_options.path);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (!error) {
        QJsonArray masters;
        for (const QString& name : m_masterNames)
            masters.append(name);
        QSqlQuery q(m_db->db());
        q.prepare(QStringLiteral("INSERT INTO sessions(started, last, masters) VALUES(?, ?, ?)"));
        q.addBindValue(now);
        q.addBindValue(now);
        q.addBindValue(QString::fromUtf8(QJsonDocument(masters).toJson(QJsonDocument::Compact)));
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
    sqlite3* handle = SqliteStatement::handle(m_db->db());
    m_insert = std::make_unique<SqliteStatement>();
    m_addResource = std::make_unique<SqliteStatement>();
    m_findResource = std::make_unique<SqliteStatement>();
    if (!m_insert->prepare(handle,
                           "INSERT INTO events(session, t, resource, master, kind, token, owner, ttl, "
                           "holding, holders, detail, audit) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") ||
        !m_addResource->prepare(handle, "INSERT OR IGNORE INTO resources(name) VALUES(?)") ||
        !m_findResource->prepare(handle, "SELECT id FROM resources WHERE name = ?")) {
        const RedisError prepareError = m_db->error(QStringLiteral("cannot prepare"), m_insert->error());
        closeQueries();
        m_db.reset();
        emit opened(prepareError);
        return;
    }
    m_touchSession = std::make_unique<QSqlQuery>(m_db->db());
    m_touchSession->prepare(QStringLiteral("UPDATE sessions SET last = ? WHERE id = ?"));
    m_lastCommitMs = now;
    m_audit.skipToEnd();
    connect(&m_heartbeat, &QTimer::timeout, this, &RecordingWriter::heartbeat);
    m_heartbeat.start(qMax(50, m_options.auditPollMs));
    connect(&m_pruneTimer, &QTimer::timeout, this, &RecordingWriter::pruneNow);
    m_pruneTimer.start(qMax(100, m_options.pruneIntervalMs));
    emit opened({});
    pruneNow();
}

std::optional<qint64> RecordingWriter::resourceId(const QByteArray& name)
{
    if (const auto it = m_resources.constFind(name); it != m_resources.cend())
        return it.value();
    m_addResource->bindBlob(1, name);
    const bool added = m_addResource->step();
    m_addResource->reset();
    if (!added)
        return std::nullopt;
    m_findResource->bindBlob(1, name);
    const bool found = m_findResource->step() && m_findResource->hasRow();
    const qint64 id = found ? m_findResource->columnInt(0) : 0;
    m_findResource->reset();
    if (!found)
        return std::nullopt;
    m_resources.insert(name, id);
    return id;
}

bool RecordingWriter::bind(const RecordEvent& e)
{
    SqliteStatement& q = *m_insert;
    if (e.resource.isEmpty()) {
        q.bindNull(3);
    } else {
        const std::optional<qint64> id = resourceId(e.resource);
        if (!id)
            return false;
        q.bindInt(3, *id);
    }
    const bool master = e.isMasterEvent();
    q.bindInt(1, m_session);
    q.bindInt(2, e.timeMs);
    e.master >= 0 ? q.bindInt(4, e.master) : q.bindNull(4);
    q.bindInt(5, int(e.kind));
    master || e.token.isNull() ? q.bindNull(6) : q.bindBlob(6, e.token);
    q.bindText(7, e.owner);
    e.ttlMs >= 0 ? q.bindInt(8, e.ttlMs) : q.bindNull(8);
    master ? q.bindNull(9) : q.bindInt(9, e.holding);
    master ? q.bindNull(10) : q.bindInt(10, qint64(e.holders));
    q.bindText(11, e.detail);
    q.bindText(12, e.auditId);
    return true;
}

QString RecordingWriter::insertAll(const RecordEventList& events)
{
    for (const RecordEvent& e : events) {
        if (!bind(e))
            return m_findResource->error();
        const bool ok = m_insert->step();
        m_insert->reset();
        if (!ok)
            return m_insert->error();
    }
    return {};
}

void RecordingWriter::write(const RecordEventList& events)
{
    const CpuStopwatch cpu(m_counters->writeCpuNs);
    if (!m_db) {
        m_counters->backlog -= events.size();
        m_counters->dropped += events.size();
        return;
    }
    QSqlDatabase& db = m_db->db();
    QString problem;
    if (!db.transaction()) {
        problem = db.lastError().text();
    } else {
        problem = insertAll(events);
        m_lastCommitMs = QDateTime::currentMSecsSinceEpoch();
        m_touchSession->addBindValue(m_lastCommitMs);
        m_touchSession->addBindValue(m_session);
        if (problem.isEmpty() && !m_touchSession->exec())
            problem = m_touchSession->lastError().text();
        if (problem.isEmpty() && !db.commit())
            problem = db.lastError().text();
        if (!problem.isEmpty()) {
            db.rollback();
            m_resources.clear(); // ids inserted in the rolled-back transaction are gone
        }
    }
    m_counters->backlog -= events.size();
    if (problem.isEmpty()) {
        m_counters->written += events.size();
        m_failing = false;
        return;
    }
    m_counters->dropped += events.size();
    if (!m_failing)
        emit failed(m_db->error(QStringLiteral("cannot record"), problem));
    m_failing = true;
}

void RecordingWriter::heartbeat()
{
    if (!m_db)
        return;
    RecordEventList audited = m_audit.poll();
    if (!audited.isEmpty()) {
        m_counters->backlog += audited.size();
        write(audited);
    } else if (QDateTime::currentMSecsSinceEpoch() - m_lastCommitMs >= 1000) {
        // A quiet second still moves the session's end: where it stops is where nobody watched.
        write({});
    }
}

void RecordingWriter::finish()
{
    m_heartbeat.stop();
    m_pruneTimer.stop();
    if (!m_db)
        return;
    heartbeat(); // a force-release written just now still belongs to this session
    QSqlQuery q(m_db->db());
    q.prepare(QStringLiteral("UPDATE sessions SET last = ?, ended = ? WHERE id = ?"));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    q.addBindValue(now);
    q.addBindValue(now);
    q.addBindValue(m_session);
    q.exec();
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
