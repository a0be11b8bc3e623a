// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "record/auditfollower.h"
#include "record/committedbatch.h"
#include "record/recorderoptions.h"
#include "record/recordevent.h"

#include <QObject>
#include <QStringList>
#include <QTimer>

#include <atomic>
#include <memory>

class QSqlDatabase;

namespace lockscope {

// Where a Recorder's events go: a SQLite file (RecordingWriter) or a team's PostgreSQL database
// (PostgresRecordingWriter). Lives on the recorder's writer thread; every call is queued there.
// What every store does alike lives here: the force-releases read from the audit log, the
// heartbeat that moves a quiet session's end, the retention timer, the session's end.
class RecordingSink : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordingSink)

public:
    struct Counters
    {
        std::atomic<qint64> backlog{0}; // handed over, not yet committed (the Recorder adds)
        std::atomic<qint64> written{0};
        std::atomic<qint64> dropped{0}; // could not be written (the store failed)
        std::atomic<qint64> pruned{0};
        std::atomic<qint64> writeCpuNs{0};   // spent by the writer thread (CpuStopwatch)
        std::atomic<qint64> observeCpuNs{0}; // spent deciding what happened, on the monitor's thread
    };

    RecordingSink(const RecorderOptions& options, std::shared_ptr<Counters> counters);
    ~RecordingSink() override = default;

    // Opens the store and begins a session over these masters (master i of the events).
    virtual void start(const QStringList& masterNames) = 0;
    virtual void write(const RecordEventList& events) = 0;
    // The session's end time, then the store is closed.
    virtual void finish() = 0;
    // One retention pass now (each step still yields to writes).
    virtual void pruneNow() = 0;

    // Owners and details are a server's bytes in words: the first 512 characters of each are kept
    // (enough for any real one), so that a holder writing megabyte values cannot make every event
    // of its lock a megabyte in the store (#39).
    static QString storedText(const QString& text);
    // Ids are given by the writer from the store's largest one up. A damaged or hostile store can
    // hold one so large that a batch's would not fit in 64 bits: refused with a reason, never
    // wrapped round. Empty when they fit.
    static QString idsRunOut(const char* table, qint64 largest, qsizetype wanted);

    // The session's `masters`: their names as a JSON array.
    static QString mastersJson(const QStringList& masterNames);

protected:
    // The store is open and its session began.
    virtual bool isOpen() const = 0;
    // Whether a heartbeat without news writes anyway: a quiet second moves the session's end.
    virtual bool quietWriteDue() const;
    // After the session began: the audit log followed from its end, the heartbeat and the retention
    // timer started; says opened() and prunes once.
    void sessionBegan();
    // The audit log's new force-releases written, or a quiet second's empty write.
    void heartbeat();
    void stopTimers();
    // These events were committed as `batch` (its ids and previous events): counted and told.
    void tellCommitted(const RecordEventList& events, CommittedBatch& batch, qint64 session, int masters);
    // The session's end time, in `db` (SQLite's or PostgreSQL's: the same statement).
    static void endSession(QSqlDatabase& db, qint64 session);
    // The session's `recorder`: user@host/program:pid (several may write one store at once).
    static QString recorderName();

signals:
    // After start(): kind None when the store is open and the session began.
    void opened(const lockscope::RedisError& error);
    // A write failed after a good start (disk full, file removed, database gone): said once per
    // failure streak.
    void failed(const lockscope::RedisError& error);
    // A retention pass finished, having removed this many events.
    void pruneFinished(qint64 removed);
    // These events are in the store now (readers see them), and where: what follows the recording
    // live (IncidentWatch) goes on from here.
    void committed(const lockscope::CommittedBatch& batch);

protected:
    std::shared_ptr<Counters> m_counters;
    qint64 m_lastCommitMs = 0;

private:
    AuditFollower m_audit;
    int m_heartbeatMs;
    int m_pruneIntervalMs;
    QTimer m_heartbeat;
    QTimer m_pruneTimer;
};

} // namespace lockscope
