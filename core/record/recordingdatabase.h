#pragma once

#include "base/rediserror.h"

#include <QSqlDatabase>
#include <QString>

namespace lockscope {

// One connection to a recording (SQLite through Qt SQL), on the thread that opened it: Qt SQL
// connections never cross threads, so the writer and every reader open their own.
//
// open() creates the file (0600, in directories made 0700: it says who held which lock) and brings
// its schema up to date (PRAGMA user_version, one migration step per version), so a recording made
// by an older LockScope opens in a newer one. A recording from a newer LockScope is refused with a
// clear error rather than misread.
class RecordingDatabase
{
    Q_DISABLE_COPY_MOVE(RecordingDatabase)

public:
    // The schema this build writes; 1: the first recorder, 2: force-releases carry their audit id,
    // 3: only the masters' events are indexed by time, 4: the resources' events by resource alone,
    // 5: no per-resource index, each resource's events chained from its latest (events.prev,
    // resources.last).
    static constexpr int schemaVersion = 6;

    RecordingDatabase();
    ~RecordingDatabase();

    // $XDG_STATE_HOME/lockscope/recording.sqlite (~/.local/state when unset), next to the audit log.
    static QString defaultPath();

    // Opens `path`, creating it unless `mustExist`. WAL mode, synchronous=NORMAL: a commit survives
    // the recording process being killed (SIGKILL), and readers never wait for the writer.
    // `upToVersion` stops the migration early: how a test makes a recording of an older LockScope.
    RedisError open(const QString& path, bool mustExist = false, int upToVersion = schemaVersion);
    bool isOpen() const { return m_db.isOpen(); }
    QSqlDatabase& db() { return m_db; }
    const QString& path() const { return m_path; }

    // Runs one statement that returns nothing; kind Io with SQLite's message on failure.
    RedisError exec(const QString& sql);
    // The first column of the first row of `sql` (a PRAGMA's answer), or an invalid QVariant.
    QVariant scalar(const QString& sql);
    // An error of kind Io naming the file: "recording.sqlite: <what>: <SQLite's text>".
    RedisError error(const QString& what, const QString& detail) const;

private:
    RedisError migrate(int upToVersion);

    QString m_connectionName;
    QString m_path;
    QSqlDatabase m_db;
};

} // namespace lockscope
