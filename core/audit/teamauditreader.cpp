// SPDX-License-Identifier: Apache-2.0
#include "audit/teamauditreader.h"

#include "audit/teamauditlog.h"
#include "audit/teamdatabase.h"

#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>

namespace lockscope {

QJsonObject TeamAuditReader::recordOf(const QString& writer, const QString& recordJson)
{
    QJsonObject record = QJsonDocument::fromJson(recordJson.toUtf8()).object();
    record.insert(QStringLiteral("writer"), writer);
    return record;
}

Result<QList<QJsonObject>> TeamAuditReader::read(TeamDatabase& db, const Query& query)
{
    if (const RedisError e = db.ensureOpen(); e.isError())
        return e;
    QString sql = QStringLiteral("SELECT writer, record FROM lockscope.audit WHERE true");
    if (query.since.isValid())
        sql += QStringLiteral(" AND at >= ?");
    if (query.resource)
        sql += QStringLiteral(" AND resource = ?");
    sql += QStringLiteral(" ORDER BY at DESC, id DESC LIMIT ?");
    QSqlQuery q(db.db());
    q.setForwardOnly(true);
    q.prepare(sql);
    if (query.since.isValid())
        q.addBindValue(query.since.toUTC());
    if (query.resource)
        q.addBindValue(*query.resource);
    q.addBindValue(std::max(1, query.limit));
    if (!q.exec())
        return db.error(QStringLiteral("cannot read the audit records"), q.lastError());
    QList<QJsonObject> out;
    while (q.next())
        out << recordOf(q.value(0).toString(), q.value(1).toString());
    std::reverse(out.begin(), out.end());
    return out;
}

Result<TeamAuditReader::Verification> TeamAuditReader::verify(TeamDatabase& db)
{
    if (const RedisError e = db.ensureOpen(); e.isError())
        return e;
    QSqlQuery q(db.db());
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT writer, id, at, record, prev_hash, hash FROM lockscope.audit "
                               "ORDER BY writer, id")))
        return db.error(QStringLiteral("cannot read the audit records"), q.lastError());
    Verification out;
    QString writer;
    QByteArray previous;
    bool first = true;
    while (q.next()) {
        ++out.rows;
        const QString rowWriter = q.value(0).toString();
        if (first || rowWriter != writer) {
            writer = rowWriter;
            previous.clear();
            ++out.writers;
            first = false;
        }
        const qint64 id = q.value(1).toLongLong();
        const QString at = q.value(2).toDateTime().toUTC().toString(Qt::ISODate);
        const QByteArray record = q.value(3).toString().toUtf8();
        const QByteArray prev = q.value(4).toString().toLatin1();
        const QByteArray hash = q.value(5).toString().toLatin1();
        if (prev != previous)
            out.problems << QStringLiteral("%1: a record is missing before record %2 (%3): it names a "
                                           "previous record that is not there")
                                .arg(writer)
                                .arg(id)
                                .arg(at);
        if (TeamAuditLog::chainHash(prev, record) != hash)
            out.problems << QStringLiteral("%1: record %2 (%3) was changed after it was written")
                                .arg(writer)
                                .arg(id)
                                .arg(at);
        previous = hash;
    }
    if (q.lastError().isValid())
        return db.error(QStringLiteral("cannot read the audit records"), q.lastError());
    return out;
}

} // namespace lockscope
