// SPDX-License-Identifier: Apache-2.0
#include "audit/teamauditlog.h"

#include "audit/auditrecord.h"
#include "base/bytesdisplay.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace lockscope {

TeamAuditLog::TeamAuditLog(TeamDatabaseUrl url, QString password)
    : m_url(std::move(url)), m_password(std::move(password))
{}

QString TeamAuditLog::writerOf(const AuditRecord& record)
{
    return writerName(record.user, record.host, record.program);
}

QString TeamAuditLog::writerName(const QString& user, const QString& host, const QString& program)
{
    return QStringLiteral("%1@%2/%3").arg(user, host, program);
}

QByteArray TeamAuditLog::chainHash(const QByteArray& previousHash, const QByteArray& recordJson)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(previousHash);
    hash.addData("\n");
    hash.addData(recordJson);
    return hash.result().toHex();
}

RedisError TeamAuditLog::check()
{
    const bool wasOpen = m_db.isOpen();
    const RedisError e = wasOpen ? m_db.ensureOpen() : m_db.open(m_url, m_password);
    if (e.isError()) {
        m_mayInsert = false;
        return e;
    }
    if (m_mayInsert && wasOpen)
        return {};
    QSqlQuery q(m_db.db());
    if (!q.exec(QStringLiteral("SELECT has_table_privilege('lockscope.audit', 'INSERT')")) || !q.next())
        return m_db.error(QStringLiteral("cannot read the privileges on the audit table"), q.lastError());
    m_mayInsert = q.value(0).toBool();
    if (!m_mayInsert)
        return {ErrorKind::Io, QString(),
                QStringLiteral("team database %1: %2 may not add audit records (resources/sql/team-roles.sql "
                               "grants it)")
                    .arg(m_url.toString(), m_url.user)};
    return {};
}

RedisError TeamAuditLog::append(const AuditRecord& record)
{
    const Result<bool> added = appendRow(writerOf(record), record.time, record.id, record.action,
                                         record.resource, record.outcome, record.toJson(), false);
    return added ? RedisError() : added.error();
}

Result<bool> TeamAuditLog::appendCopied(const QJsonObject& line)
{
    const QString writer = writerName(line.value(QStringLiteral("user")).toString(),
                                      line.value(QStringLiteral("host")).toString(),
                                      line.value(QStringLiteral("program")).toString());
    const QDateTime time =
        QDateTime::fromString(line.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    const Result<QByteArray> resource = unescapeBytes(line.value(QStringLiteral("resource")).toString());
    if (!time.isValid() || !resource || line.value(QStringLiteral("action")).toString().isEmpty())
        return RedisError(ErrorKind::InvalidArgument, QString(),
                          QStringLiteral("an audit record without a time, an action or a resource"));
    return appendRow(writer, time, line.value(QStringLiteral("id")).toString(),
                     line.value(QStringLiteral("action")).toString(), *resource,
                     line.value(QStringLiteral("outcome")).toString(),
                     QJsonDocument(line).toJson(QJsonDocument::Compact), true);
}

Result<bool> TeamAuditLog::appendRow(const QString& writer, const QDateTime& time, const QString& id,
                                     const QString& action, const QByteArray& resource,
                                     const QString& outcome, const QByteArray& json, bool unlessThere)
{
    if (const RedisError e = check(); e.isError())
        return e;
    QSqlDatabase& db = m_db.db();
    if (!db.transaction())
        return m_db.error(QStringLiteral("cannot begin the audit record"), db.lastError());
    QSqlQuery q(db);
    const auto fail = [&](const QString& what) {
        const RedisError e = m_db.error(what, q.lastError());
        db.rollback();
        return e;
    };
    // One writer's rows form one chain even when several of its processes write at once: the
    // previous hash is read and the row added under a lock on that writer's chain.
    q.prepare(QStringLiteral("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))"));
    q.addBindValue(writer);
    if (!q.exec())
        return fail(QStringLiteral("cannot lock the writer's chain"));
    if (unlessThere) {
        // A copy run twice, or of a record the writer also sent here as it wrote it.
        q.prepare(QStringLiteral("SELECT 1 FROM lockscope.audit WHERE writer = ? AND record = ?"));
        q.addBindValue(writer);
        q.addBindValue(QString::fromUtf8(json));
        if (!q.exec())
            return fail(QStringLiteral("cannot read the writer's records"));
        if (q.next()) {
            db.rollback();
            return false;
        }
    }
    q.prepare(QStringLiteral("SELECT hash FROM lockscope.audit WHERE writer = ? ORDER BY id DESC LIMIT 1"));
    q.addBindValue(writer);
    if (!q.exec())
        return fail(QStringLiteral("cannot read the writer's last record"));
    const QByteArray previous = q.next() ? q.value(0).toByteArray() : QByteArray();
    q.prepare(QStringLiteral("INSERT INTO lockscope.audit(at, writer, record_id, action, resource, outcome, "
                             "record, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(time.toUTC());
    q.addBindValue(writer);
    q.addBindValue(id);
    q.addBindValue(action);
    q.addBindValue(resource);
    q.addBindValue(outcome);
    q.addBindValue(QString::fromUtf8(json));
    q.addBindValue(previous.isEmpty() ? QStringLiteral("")
                                      : QString::fromLatin1(previous)); // not NULL: the first of a chain
    q.addBindValue(QString::fromLatin1(chainHash(previous, json)));
    if (!q.exec())
        return fail(QStringLiteral("cannot add the audit record"));
    // Windows on the team database show it within a second (TeamAuditFeed): delivered on commit.
    if (!q.exec(QStringLiteral("SELECT pg_notify('%1', '')").arg(notificationChannel)))
        return fail(QStringLiteral("cannot announce the audit record"));
    if (!db.commit())
        return m_db.error(QStringLiteral("cannot commit the audit record"), db.lastError());
    return true;
}

} // namespace lockscope
