// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "record/committedbatch.h"
#include "record/recordevent.h"

#include <QObject>
#include <QStringList>

#include <atomic>

namespace lockscope {

// Where a Recorder's events go: a SQLite file (RecordingWriter) or a team's PostgreSQL database
// (PostgresRecordingWriter). Lives on the recorder's writer thread; every call is queued there.
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

    RecordingSink() = default;
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
};

} // namespace lockscope
