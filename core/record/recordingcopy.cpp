// SPDX-License-Identifier: Apache-2.0
#include "record/recordingcopy.h"

#include "audit/auditreader.h"
#include "audit/teamauditlog.h"
#include "audit/teamdatabase.h"
#include "record/recordingreader.h"
#include "record/recordingsink.h"
#include "record/teameventtable.h"

#include <QFileInfo>
#include <QHash>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <limits>

namespace lockscope {

namespace {

// Events go in this many to a statement batch (TeamEventTable splits them further).
constexpr qsizetype eventsPerBatch = 5000;
// The largest audit log copied (its newest records, were it larger).
constexpr qint64 maxAuditBytes = 1024LL * 1024 * 1024;

// Where a copied session came from: the same session of the same file names the same origin.
QString originOf(const RecordingSession& s)
{
    return QStringLiteral("copy:%1|%2|%3")
        .arg(s.recorders.value(0))
        .arg(s.startedMs)
        .arg(RecordingSink::mastersJson(s.masters));
}

} // namespace

Result<RecordingCopy::Report> RecordingCopy::copy(const QString& recording, const QString& auditLog,
                                                  const TeamDatabaseUrl& to, const QString& password)
{
    Report report;
    if (TeamDatabaseUrl::isPostgresUrl(recording))
        return RedisError(ErrorKind::InvalidArgument, QString(),
                          QStringLiteral("copy from a recording file: the database is where it goes"));
    if (const RedisError e = copyRecording(recording, to, password, report); e.isError())
        return e;
    if (!auditLog.isEmpty() && QFileInfo::exists(auditLog))
        if (const RedisError e = copyAuditLog(auditLog, to, password, report); e.isError())
            return e;
    return report;
}

RedisError RecordingCopy::copyRecording(const QString& recording, const TeamDatabaseUrl& to,
                                        const QString& password, Report& report)
{
    RecordingReader reader;
    if (const RedisError e = reader.open(recording); e.isError())
        return e;
    const Result<QList<RecordingSession>> sessions = reader.recorderSessions();
    if (!sessions)
        return sessions.error();
    TeamDatabase db;
    if (const RedisError e = db.open(to, password); e.isError())
        return e;
    QSqlDatabase& sql = db.db();
    if (!sql.transaction())
        return db.error(QStringLiteral("cannot begin the copy"), sql.lastError());
    QSqlQuery q(sql);
    const auto fail = [&](const QString& what, const QSqlError& error) {
        const RedisError e = db.error(what, error);
        sql.rollback();
        return e;
    };
    QHash<qint64, qint64> copied; // the file's session id -> the database's
    for (const RecordingSession& s : *sessions) {
        q.prepare(QStringLiteral("INSERT INTO sessions(started, last, ended, masters, recorder, origin) "
                                 "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (origin) DO NOTHING RETURNING id"));
        q.addBindValue(s.startedMs);
        q.addBindValue(s.lastMs);
        q.addBindValue(s.endedMs < 0 ? QVariant(QMetaType::fromType<qint64>()) : QVariant(s.endedMs));
        q.addBindValue(RecordingSink::mastersJson(s.masters));
        q.addBindValue(s.recorders.isEmpty() ? QVariant(QMetaType::fromType<QString>())
                                             : QVariant(s.recorders.first()));
        q.addBindValue(originOf(s));
        if (!q.exec())
            return fail(QStringLiteral("cannot copy a session"), q.lastError());
        if (q.next()) {
            copied.insert(s.id, q.value(0).toLongLong());
            ++report.sessions;
        } else {
            ++report.sessionsThere;
        }
    }
    TeamEventTable table(db);
    RecordEventList batch;
    QList<qint64> batchSessions;
    QString problem;
    const auto flush = [&] {
        qint64 first = 0;
        problem = table.takeIds(batch.size(), &first);
        if (problem.isEmpty())
            problem = table.insert(batch, first, batchSessions);
        report.events += batch.size();
        batch.clear();
        batchSessions.clear();
        return problem.isEmpty();
    };
    const RedisError read = reader.forEachStoredEvent([&](const HistoryEvent& h) {
        const auto session = copied.constFind(h.session);
        if (session == copied.cend())
            return true; // copied before, or a session beyond the newest ones read
        batch << h.event;
        batchSessions << session.value();
        return batch.size() < eventsPerBatch || flush();
    });
    if (read.isError()) {
        sql.rollback();
        return read;
    }
    if ((problem.isEmpty() && !batch.isEmpty() && !flush()) || !problem.isEmpty()) {
        sql.rollback();
        return {ErrorKind::Io, QString(),
                QStringLiteral("team database %1: cannot copy the events: %2").arg(to.toString(), problem)};
    }
    if (!sql.commit())
        return db.error(QStringLiteral("cannot commit the copy"), sql.lastError());
    return {};
}

RedisError RecordingCopy::copyAuditLog(const QString& auditLog, const TeamDatabaseUrl& to,
                                       const QString& password, Report& report)
{
    const AuditReader::Tail tail =
        AuditReader::read(auditLog, std::numeric_limits<int>::max(), maxAuditBytes);
    if (!tail.error.isEmpty())
        return {ErrorKind::Io, QString(), QStringLiteral("%1: %2").arg(auditLog, tail.error)};
    report.auditUnreadable += int(tail.tornLines.size());
    TeamAuditLog log(to, password);
    for (const QJsonObject& record : tail.records) {
        const Result<bool> added = log.appendCopied(record);
        if (!added && added.error().kind == ErrorKind::InvalidArgument) {
            ++report.auditUnreadable;
            continue;
        }
        if (!added)
            return added.error();
        ++(*added ? report.auditRecords : report.auditThere);
    }
    return {};
}

} // namespace lockscope
