// SPDX-License-Identifier: Apache-2.0
#include "audit/teamdatabase.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>
#include <QUuid>
#include <QVariant>

namespace lockscope {

namespace {

// Each step takes the schema from version i to i + 1; frozen once released, as the recording's.
const QList<QStringList>& migrationSteps()
{
    static const QList<QStringList> all{
        // 0 -> 1: the team audit trail. Rows are only ever inserted: each names the hash of its
        // writer's previous row, so that a row taken out of a writer's chain is noticed.
        {QStringLiteral("CREATE TABLE lockscope.schema_version(version integer NOT NULL)"),
         QStringLiteral("CREATE TABLE lockscope.audit(id bigserial PRIMARY KEY, at timestamptz NOT NULL, "
                        "writer text NOT NULL, record_id text NOT NULL, action text NOT NULL, "
                        "resource bytea NOT NULL, outcome text NOT NULL, record text NOT NULL, "
                        "prev_hash text NOT NULL, hash text NOT NULL)"),
         QStringLiteral("CREATE INDEX audit_by_writer ON lockscope.audit(writer, id)"),
         QStringLiteral("CREATE INDEX audit_by_time ON lockscope.audit(at)"),
         QStringLiteral("CREATE INDEX audit_by_resource ON lockscope.audit(resource, at)"),
         QStringLiteral("INSERT INTO lockscope.schema_version(version) VALUES (0)")},
        // 1 -> 2: recordings (the flight recorder's sessions, resources and events), as the SQLite
        // recording keeps them, with an index per resource: PostgreSQL's B-tree takes several
        // writers at once, which SQLite's chain of each resource's events (`prev`) is there to avoid.
        // A session copied from a file names where it came from (`origin`: `lockctl db copy` run
        // twice copies it once). Event ids are given by the writers under an advisory lock
        // (PostgresRecordingWriter), in commit
        // order.
        {QStringLiteral(
             "CREATE TABLE lockscope.sessions(id bigserial PRIMARY KEY, started bigint NOT NULL, "
             "last bigint NOT NULL, ended bigint, masters text NOT NULL, recorder text, origin text UNIQUE)"),
         QStringLiteral(
             "CREATE TABLE lockscope.resources(id bigserial PRIMARY KEY, name bytea NOT NULL UNIQUE)"),
         QStringLiteral("CREATE TABLE lockscope.events(id bigint PRIMARY KEY, session bigint NOT NULL, "
                        "t bigint NOT NULL, resource bigint, master integer, kind integer NOT NULL, "
                        "token bytea, owner text, ttl bigint, holding integer, holders bigint, detail text, "
                        "audit text)"),
         QStringLiteral("CREATE INDEX events_of_resource ON lockscope.events(resource, id) WHERE resource IS "
                        "NOT NULL"),
         QStringLiteral("CREATE INDEX master_events_by_time ON lockscope.events(t) WHERE resource IS NULL"),
         // The writer role (team-roles.sql) inserts and reads by the default privileges; a recorder
         // also moves its session's end and removes what its retention lets go. Audit rows stay
         // insert-only.
         QStringLiteral(
             "DO $$ BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'lockscope_writer') THEN "
             "GRANT UPDATE (last, ended) ON lockscope.sessions TO lockscope_writer; "
             "GRANT DELETE ON lockscope.sessions, lockscope.events TO lockscope_writer; "
             "END IF; END $$")},
    };
    return all;
}

// Serialises the migrations of several programs starting at once (pg_advisory_xact_lock's key).
constexpr qint64 migrationLockKey = 0x4c6f636b53636f70; // "LockScop"

// The version stored, 0 for none; -1 with `error` set when it cannot be read.
int storedVersion(QSqlDatabase& db, QSqlError* error)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT to_regclass('lockscope.schema_version') IS NOT NULL"))) {
        *error = q.lastError();
        return -1;
    }
    if (!q.next() || !q.value(0).toBool())
        return 0;
    if (!q.exec(QStringLiteral("SELECT max(version) FROM lockscope.schema_version"))) {
        *error = q.lastError();
        return -1;
    }
    return q.next() ? q.value(0).toInt() : 0;
}

} // namespace

TeamDatabase::TeamDatabase()
    : m_connectionName(QStringLiteral("lockscope-team-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
{}

TeamDatabase::~TeamDatabase()
{
    close();
}

void TeamDatabase::close()
{
    if (!m_db.isValid())
        return;
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connectionName);
}

RedisError TeamDatabase::error(const QString& what, const QSqlError& sqlError) const
{
    QString detail = sqlError.databaseText().trimmed();
    if (detail.isEmpty())
        detail = sqlError.text().trimmed();
    return {ErrorKind::Io, QString(),
            QStringLiteral("team database %1: %2: %3").arg(m_url.toString(), what, detail)};
}

RedisError TeamDatabase::open(const TeamDatabaseUrl& url, const QString& password)
{
    m_url = url;
    m_password = password;
    if (const RedisError e = connect(); e.isError())
        return e;
    return checkSchema();
}

RedisError TeamDatabase::connect()
{
    close();
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL")))
        return {ErrorKind::Io, QString(),
                QStringLiteral("team database %1: Qt's PostgreSQL driver is not installed (Debian package "
                               "libqt6sql6-psql)")
                    .arg(m_url.toString())};
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_connectionName);
    m_db.setHostName(m_url.host);
    m_db.setPort(m_url.port);
    m_db.setUserName(m_url.user);
    m_db.setDatabaseName(m_url.database);
    if (!m_password.isEmpty())
        m_db.setPassword(m_password);
    m_db.setConnectOptions(m_url.connectOptions());
    if (!m_db.open()) {
        const RedisError e = error(QStringLiteral("cannot connect"), m_db.lastError());
        close();
        return e;
    }
    // The recording's statements name its tables as the SQLite file's do (RecordingReader).
    QSqlQuery path(m_db);
    if (!path.exec(QStringLiteral("SET search_path TO lockscope"))) {
        const RedisError e = error(QStringLiteral("cannot use the schema `lockscope`"), path.lastError());
        close();
        return e;
    }
    return {};
}

RedisError TeamDatabase::ensureOpen()
{
    if (m_db.isOpen()) {
        QSqlQuery ping(m_db);
        if (ping.exec(QStringLiteral("SELECT 1")))
            return {};
    }
    // Restarted, or the connection dropped: one new connection, with the schema checked again.
    if (const RedisError e = connect(); e.isError())
        return e;
    return checkSchema();
}

RedisError TeamDatabase::checkSchema()
{
    QSqlError sqlError;
    int version = storedVersion(m_db, &sqlError);
    if (version < 0)
        return error(QStringLiteral("cannot read the schema version"), sqlError);
    if (version > schemaVersion)
        return {ErrorKind::InvalidConfig, QString(),
                QStringLiteral("team database %1: schema version %2 is newer than this LockScope's (%3); "
                               "update LockScope")
                    .arg(m_url.toString())
                    .arg(version)
                    .arg(schemaVersion)};
    if (version == schemaVersion)
        return {};
    if (!m_db.transaction())
        return error(QStringLiteral("cannot begin the schema update"), m_db.lastError());
    QSqlQuery q(m_db);
    const auto fail = [&](const QString& what) {
        const RedisError e = error(what, q.lastError());
        m_db.rollback();
        return e;
    };
    if (!q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(migrationLockKey)))
        return fail(QStringLiteral("cannot lock the schema for its update"));
    // Another program may have brought it up to date while this one waited for the lock.
    version = storedVersion(m_db, &sqlError);
    if (version < 0) {
        m_db.rollback();
        return error(QStringLiteral("cannot read the schema version"), sqlError);
    }
    // A team's administrator makes the schema for its owner role (team-roles.sql); one user with a
    // database of its own lets LockScope make it. CREATE SCHEMA IF NOT EXISTS would ask for the
    // right to create in the database even when the schema is there.
    if (version == 0 &&
        (!q.exec(QStringLiteral("SELECT to_regnamespace('lockscope') IS NULL")) || !q.next() ||
         (q.value(0).toBool() && !q.exec(QStringLiteral("CREATE SCHEMA lockscope")))))
        return fail(
            QStringLiteral("cannot make the schema `lockscope` as %1 (docs/manual/team.md)").arg(m_url.user));
    for (; version < schemaVersion; ++version) {
        for (const QString& statement : migrationSteps().at(version))
            if (!q.exec(statement))
                return fail(QStringLiteral("cannot bring the schema to version %1 as %2 (connect once as "
                                           "the schema's owner: docs/manual/team.md)")
                                .arg(version + 1)
                                .arg(m_url.user));
        if (!q.exec(QStringLiteral("UPDATE lockscope.schema_version SET version = %1").arg(version + 1)))
            return fail(QStringLiteral("cannot store the schema version"));
    }
    if (!m_db.commit())
        return error(QStringLiteral("cannot commit the schema update"), m_db.lastError());
    return {};
}

} // namespace lockscope
