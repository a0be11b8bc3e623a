// SPDX-License-Identifier: Apache-2.0
#include "record/teameventtable.h"

#include "record/recordingsink.h"
#include "record/sqlrowtext.h"

#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace lockscope {

namespace {

// This many rows go in one INSERT (a statement per row was a round trip per event); this many
// resources in one lookup.
constexpr int eventRowsPerInsert = 1000;
constexpr int namesPerStatement = 500;
// pg_advisory_xact_lock's key for taking event ids: "LSevents".
constexpr qint64 eventIdsLockKey = 0x4c536576656e7473;

QString valueRows(int rows, int perRow)
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

QString serverProblem(const QSqlQuery& q)
{
    const QSqlError e = q.lastError();
    const QString detail = e.databaseText().trimmed();
    return detail.isEmpty() ? e.text().trimmed() : detail;
}

} // namespace

QString TeamEventTable::takeIds(qsizetype count, qint64* first)
{
    QSqlQuery q(m_db.db());
    // One writer at a time takes ids, until it commits: ids follow commit order.
    if (!q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(eventIdsLockKey)))
        return serverProblem(q);
    if (!q.exec(QStringLiteral("SELECT coalesce(max(id), 0) FROM events")) || !q.next())
        return serverProblem(q);
    const qint64 largest = q.value(0).toLongLong();
    if (QString problem = RecordingSink::idsRunOut("event", largest, count); !problem.isEmpty())
        return problem;
    // Another writer wrote since our last batch (or this is our first): the latest events we know
    // may not be the latest; each resource's is read again when a batch names it.
    if (largest != m_lastId)
        m_lastEvent.clear();
    *first = largest + 1;
    m_pendingLast = largest + count;
    return {};
}

QString TeamEventTable::insert(const RecordEventList& events, qint64 first, const QList<qint64>& sessions,
                               QList<qint64>* previous)
{
    if (previous)
        previous->fill(0, events.size());
    if (QString problem = learnResources(events); !problem.isEmpty())
        return problem;
    for (qsizetype from = 0; from < events.size(); from += eventRowsPerInsert)
        if (QString problem =
                insertRows(events, from, qMin<qsizetype>(eventRowsPerInsert, events.size() - from), first,
                           sessions, previous);
            !problem.isEmpty())
            return problem;
    return announce(m_db.db());
}

QString TeamEventTable::announce(QSqlDatabase& db)
{
    // Windows on the database read what is new when it is committed (TeamRecordingFeed): a
    // notification is delivered on commit, once per transaction however many batches it holds.
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT pg_notify('%1', '')").arg(QLatin1String(notificationChannel))))
        return serverProblem(q);
    return {};
}

void TeamEventTable::finished(bool committed)
{
    if (committed) {
        m_lastId = qMax(m_lastId, m_pendingLast);
        return;
    }
    // Resources made and events written in the rolled-back transaction are gone: both are read
    // again next time.
    m_resourceIds.clear();
    m_lastEvent.clear();
    m_lastId = -1;
}

QString TeamEventTable::learnResources(const RecordEventList& events)
{
    QList<QByteArray> unknown;
    QSet<QByteArray> asked;
    for (const RecordEvent& e : events)
        if (!e.resource.isEmpty() && !m_resourceIds.contains(e.resource) && !asked.contains(e.resource)) {
            asked.insert(e.resource);
            unknown << e.resource;
        }
    for (qsizetype from = 0; from < unknown.size(); from += namesPerStatement) {
        const int n = int(qMin<qsizetype>(namesPerStatement, unknown.size() - from));
        QSqlQuery q(m_db.db());
        // Made when new; another recorder may make the same one at the same time (its row wins).
        q.prepare(QStringLiteral("INSERT INTO resources(name) VALUES %1 ON CONFLICT (name) DO NOTHING")
                      .arg(valueRows(n, 1)));
        for (int i = 0; i < n; ++i)
            q.addBindValue(unknown.at(from + i));
        if (!q.exec())
            return serverProblem(q);
        q.prepare(QStringLiteral("SELECT id, name FROM resources WHERE name IN %1").arg(valueRows(1, n)));
        for (int i = 0; i < n; ++i)
            q.addBindValue(unknown.at(from + i));
        if (!q.exec())
            return serverProblem(q);
        while (q.next())
            m_resourceIds.insert(q.value(1).toByteArray(), q.value(0).toLongLong());
    }
    return learnLatest(events);
}

QString TeamEventTable::learnLatest(const RecordEventList& events)
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
    for (qsizetype from = 0; from < unknown.size(); from += namesPerStatement) {
        const int n = int(qMin<qsizetype>(namesPerStatement, unknown.size() - from));
        QSqlQuery q(m_db.db());
        q.prepare(
            QStringLiteral("SELECT resource, max(id) FROM events WHERE resource IN %1 GROUP BY resource")
                .arg(valueRows(1, n)));
        for (int i = 0; i < n; ++i)
            q.addBindValue(unknown.at(from + i));
        if (!q.exec())
            return serverProblem(q);
        for (int i = 0; i < n; ++i)
            m_lastEvent.insert(unknown.at(from + i), 0); // none yet, unless read below
        while (q.next())
            m_lastEvent.insert(q.value(0).toLongLong(), q.value(1).toLongLong());
    }
    return {};
}

QString TeamEventTable::insertRows(const RecordEventList& events, qsizetype from, qsizetype rows,
                                   qint64 first, const QList<qint64>& sessions, QList<qint64>* previous)
{
    // The statement's text is written here, values as literals (SqlRowText), not bound: Qt's
    // QPSQL turns each bound value into text anyway, through a QVariant and an escaping call per
    // value, which made the writer's thread most of the recorder's CPU at 5k changes a second.
    SqlRowText sql;
    sql.reserve(rows * 192);
    sql.append(
        "INSERT INTO events(id, session, t, resource, master, kind, token, owner, ttl, holding, holders, "
        "detail, audit) VALUES ");
    for (qsizetype i = from; i < from + rows; ++i) {
        const RecordEvent& e = events.at(i);
        const bool master = e.isMasterEvent();
        const qint64 id = first + i;
        qint64 resource = -1;
        if (!e.resource.isEmpty()) {
            resource = m_resourceIds.value(e.resource, -1);
            if (resource < 0)
                return QStringLiteral("a resource of the batch could not be named");
            qint64& last = m_lastEvent[resource];
            if (previous)
                (*previous)[i] = last;
            last = id;
        }
        sql.beginRow(i == from);
        sql.number(id);
        sql.number(sessions.size() == 1 ? sessions.first() : sessions.value(i, -1));
        sql.number(e.timeMs);
        resource < 0 ? sql.null() : sql.number(resource);
        e.master < 0 ? sql.null() : sql.number(e.master);
        sql.number(int(e.kind));
        master || e.token.isNull() ? sql.null() : sql.bytes(e.token);
        sql.text(RecordingSink::storedText(e.owner));
        e.ttlMs < 0 ? sql.null() : sql.number(e.ttlMs);
        master ? sql.null() : sql.number(e.holding);
        master ? sql.null() : sql.number(qint64(e.holders));
        sql.text(RecordingSink::storedText(e.detail));
        sql.text(e.auditId);
        sql.endRow();
    }
    QSqlQuery q(m_db.db());
    return q.exec(sql.statement()) ? QString() : serverProblem(q);
}

} // namespace lockscope
