#pragma once

#include "record/auditfollower.h"
#include "record/recorderoptions.h"
#include "record/recordevent.h"
#include "record/recordingdatabase.h"
#include "record/sqlitestatement.h"

#include <QHash>
#include <QObject>
#include <QSqlQuery>
#include <QStringList>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>

namespace lockscope {

// The one thread that writes a recording. Events arrive in batches (queued calls from the
// Recorder's thread), each batch is one transaction; pruning runs in small steps between batches, so
// it never holds recording back for long. Lives on its own QThread: create it, move it, then call
// start() there (queued).
class RecordingWriter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordingWriter)

public:
    struct Counters
    {
        std::atomic<qint64> backlog{0}; // handed over, not yet committed (the Recorder adds)
        std::atomic<qint64> written{0};
        std::atomic<qint64> dropped{0}; // could not be written (the file failed)
        std::atomic<qint64> pruned{0};
        std::atomic<qint64> writeCpuNs{0};   // spent by the writer thread (CpuStopwatch)
        std::atomic<qint64> observeCpuNs{0}; // spent deciding what happened, on the monitor's thread
    };

    RecordingWriter(RecorderOptions options, std::shared_ptr<Counters> counters);
    ~RecordingWriter() override;

    // All on the writer's thread (queued).
    // Opens the file and begins a session over these masters (master i of the events).
    void start(const QStringList& masterNames);
    void write(const RecordEventList& events);
    // The session's end time, then the file is closed.
    void finish();
    // One retention pass now (each step still yields to writes).
    void pruneNow();

signals:
    // After start(): kind None when the file is open and the session began.
    void opened(const lockscope::RedisError& error);
    // A write failed after a good start (disk full, file removed): said once per failure streak.
    void failed(const lockscope::RedisError& error);
    // A retention pass finished, having removed this many events.
    void pruneFinished(qint64 removed);

private:
    std::optional<qint64> resourceId(const QByteArray& name);
    // Binds one event's 12 values to m_insert, in order; false when its resource could not be named.
    bool bind(const RecordEvent& e);
    // SQLite's error, or empty.
    QString insertAll(const RecordEventList& events);
    void heartbeat();
    // One step of a retention pass; schedules the next while there is more to remove.
    void pruneStep();
    // Returns freed pages to the file system, a step at a time; ends the pass.
    void vacuumStep();
    qint64 usedBytes();
    void closeQueries();

    RecorderOptions m_options;
    QStringList m_masterNames;
    std::shared_ptr<Counters> m_counters;
    std::unique_ptr<RecordingDatabase> m_db;
    // Prepared once (parsing is most of a small statement's cost), bound through SQLite's API.
    std::unique_ptr<SqliteStatement> m_insert;
    std::unique_ptr<SqliteStatement> m_addResource;
    std::unique_ptr<SqliteStatement> m_findResource;
    std::unique_ptr<QSqlQuery> m_touchSession;
    AuditFollower m_audit;
    QHash<QByteArray, qint64> m_resources;
    qint64 m_session = -1;
    qint64 m_lastCommitMs = 0;
    bool m_failing = false;
    bool m_pruning = false;
    qint64 m_prunedThisPass = 0;
    QTimer m_heartbeat;
    QTimer m_pruneTimer;
};

} // namespace lockscope
