// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabaseurl.h"
#include "base/rediserror.h"

#include <QSqlDatabase>
#include <QString>

class QSqlError;

namespace lockscope {

// One connection to a team's PostgreSQL database (Qt SQL's QPSQL driver), on the thread that
// opened it (Qt SQL connections never cross threads). Its tables live in the schema `lockscope`,
// versioned like the recording's (and `search_path` set to it, so a recording's statements read
// as they do on a SQLite file): a database of a newer version is refused, an older one is
// brought up to date in one transaction by whoever connects first with the right to (the
// schema's owner; resources/sql/team-roles.sql sets the roles up), the others wait for it.
class TeamDatabase
{
    Q_DISABLE_COPY_MOVE(TeamDatabase)

public:
    // 1: the team audit trail. 2: recordings.
    static constexpr int schemaVersion = 2;

    TeamDatabase();
    ~TeamDatabase();

    // Connects and checks (or brings up to date) the schema. `password` empty: libpq's own
    // (PGPASSWORD, ~/.pgpass). Errors name the database by its URL, never with a password.
    RedisError open(const TeamDatabaseUrl& url, const QString& password);
    bool isOpen() const { return m_db.isOpen(); }
    // Connected now: one round trip, and a new connection when the server was restarted meanwhile.
    RedisError ensureOpen();
    QSqlDatabase& db() { return m_db; }
    const TeamDatabaseUrl& url() const { return m_url; }
    // An error naming the database: "team database postgresql://…: <what>: <the server's text>".
    RedisError error(const QString& what, const QSqlError& sqlError) const;

private:
    RedisError connect();
    RedisError checkSchema();
    void close();

    TeamDatabaseUrl m_url;
    QString m_password;
    QString m_connectionName;
    QSqlDatabase m_db;
};

} // namespace lockscope
