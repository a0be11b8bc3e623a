// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabase.h"
#include "base/rediserror.h"
#include "record/recordingschema.h"

#include <QSqlDatabase>
#include <QString>

#include <memory>

namespace lockscope {

// One connection to a recording (SQLite through Qt SQL, or a team's PostgreSQL database for
// reading), on the thread that opened it: Qt SQL
// connections never cross threads, so the writer and every reader open their own.
//
// A recording may come from elsewhere, so every open checks what it finds before running anything
// on it (RecordingSchema::problem: the schema version in range, the expected tables and columns,
// no view, trigger or virtual table) and hardens the connection (SQLite's defensive mode,
// trusted_schema off, triggers and views disabled).
//
// The writer's open() creates the file (PrivateFile: 0600, O_NOFOLLOW, in directories made 0700:
// it says who held which lock) and brings its schema up to date (PRAGMA user_version, one
// migration step per version), so a recording made by an older LockScope opens in a newer one. A
// reader's openForReading() never writes to the file: it is opened read-only, and an older schema
// is brought up to date in a copy in memory, so a read leaves the file's bytes as they were.
class RecordingDatabase
{
    Q_DISABLE_COPY_MOVE(RecordingDatabase)

public:
    static constexpr int schemaVersion = RecordingSchema::currentVersion;
    // The largest older recording a reader upgrades in memory; a larger one is refused by version.
    static constexpr qint64 maxUpgradeInMemoryBytes = 512LL * 1024 * 1024;
    // The largest string or blob a reader reads (a token, an owner, a session's masters).
    static constexpr int maxValueBytes = 1024 * 1024;

    RecordingDatabase();
    ~RecordingDatabase();

    // $XDG_STATE_HOME/lockscope/recording.sqlite (~/.local/state when unset), next to the audit log.
    static QString defaultPath();
    // An error when `path` is a URL (scheme://...), which is never taken for a file name; none otherwise.
    // (A postgresql:// one is a team database: RecordingReader and Recorder open it.)
    static RedisError notAFile(const QString& path);
    // demo-recording.sqlite beside it: the demo's stories never show in the user's History.
    static QString demoPath();

    // For the writer: opens `path`, creating it unless `mustExist`. WAL mode, synchronous=NORMAL:
    // a commit survives the recording process being killed (SIGKILL), and readers never wait for
    // the writer. An existing file must be the user's own, private (unless `allowShared`) and not
    // a symbolic link. `upToVersion` stops the migration early: how a test makes a recording of an
    // older LockScope.
    RedisError open(const QString& path, bool mustExist = false, int upToVersion = schemaVersion,
                    bool allowShared = false);
    // For readers: opens an existing recording read-only, of any version this build knows; or a
    // team's PostgreSQL database (postgresql://…, with `password` or libpq's own), whose
    // connection reads only.
    RedisError openForReading(const QString& path, const QString& password = {});
    bool isOpen() const { return m_db.isOpen(); }
    // A team's PostgreSQL database, not a SQLite file: the readers' few statements that differ.
    bool isTeamDatabase() const { return m_team != nullptr; }
    QSqlDatabase& db() { return m_db; }
    const QString& path() const { return m_path; }
    // The schema version the file itself has (a reader may read a newer copy of it in memory).
    int fileVersion() const { return m_fileVersion; }

    // Runs one statement that returns nothing; kind Io with SQLite's message on failure.
    RedisError exec(const QString& sql);
    // The first column of the first row of `sql` (a PRAGMA's answer), or an invalid QVariant.
    QVariant scalar(const QString& sql);
    // An error of kind Io naming the file: "recording.sqlite: <what>: <SQLite's text>".
    RedisError error(const QString& what, const QString& detail) const;

private:
    enum class Use
    {
        Write,
        Read
    };
    // Opens m_db on `name` with Qt's connect `options`.
    RedisError connect(const QString& name, const QString& options);
    // SQLite's protections against a hostile file, before anything reads it.
    RedisError harden(Use use);
    // Reads the version and checks the schema against it: the version, or an error.
    RedisError checkSchema(int* version);
    // Replaces the read-only connection by an in-memory copy of the file, then brought up to date.
    RedisError upgradeInMemory();
    RedisError migrate(int fromVersion, int upToVersion);
    RedisError openTeamDatabase(const QString& url, const QString& password);
    void close();

    std::unique_ptr<TeamDatabase> m_team;
    QString m_connectionName;
    QString m_path;
    QSqlDatabase m_db;
    int m_fileVersion = -1;
};

} // namespace lockscope
