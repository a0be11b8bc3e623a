// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabase.h"
#include "base/result.h"

#include <QByteArray>
#include <QString>

class QDateTime;
class QJsonObject;

namespace lockscope {

struct AuditRecord;

// The team's audit trail (issue #45): each write attempt, as the audit log file keeps it, also in
// the team database, so that the on-call engineer reads what a colleague force-released from
// another desktop. The same discipline as the file: check() before anything is sent (a write that
// cannot be recorded does not happen), append() after.
//
// Rows are only inserted (the role programs write with may not update or delete them:
// resources/sql/team-roles.sql). Each row carries the hash of its writer's previous row (a writer
// is user@host/program): sha256(previous hash + "\n" + the record's JSON line). A row taken out of
// a chain, or changed, breaks it (TeamAuditReader::verify); the newest row of a writer taken
// away leaves no trace in its chain, as with any chain that nothing outside anchors.
class TeamAuditLog
{
    Q_DISABLE_COPY_MOVE(TeamAuditLog)

public:
    // `password` empty: libpq's own (PGPASSWORD, ~/.pgpass). Connects at the first check().
    TeamAuditLog(TeamDatabaseUrl url, QString password);

    const TeamDatabaseUrl& url() const { return m_url; }
    // Connected, the schema current, and this role may insert audit rows; kind Io otherwise.
    RedisError check();
    RedisError append(const AuditRecord& record);
    // A record of an audit log file, as the file has it (`lockctl db copy`), in its writer's chain:
    // true when added, false when the writer's chain has it already.
    Result<bool> appendCopied(const QJsonObject& line);

    // The PostgreSQL channel each new record is announced on (LISTEN/NOTIFY, TeamAuditFeed).
    static constexpr char notificationChannel[] = "lockscope_audit";
    // user@host/program: whose chain a record continues.
    static QString writerOf(const AuditRecord& record);
    static QString writerName(const QString& user, const QString& host, const QString& program);
    // The hex sha256 of `previousHash` "\n" `recordJson`: a row's hash.
    static QByteArray chainHash(const QByteArray& previousHash, const QByteArray& recordJson);

private:
    // Adds one row to `writer`'s chain: true; with `unlessThere`, false when the chain has the
    // same record already.
    Result<bool> appendRow(const QString& writer, const QDateTime& time, const QString& id,
                           const QString& action, const QByteArray& resource, const QString& outcome,
                           const QByteArray& json, bool unlessThere);

    TeamDatabaseUrl m_url;
    QString m_password;
    TeamDatabase m_db;
    bool m_mayInsert = false; // checked once per connection
};

} // namespace lockscope
