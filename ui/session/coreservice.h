// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/auditlog.h"
#include "audit/teamauditlog.h"
#include "config/lockscopeconfig.h"
#include "diagnosis/diagnosisfacts.h"
#include "diagnosis/safetyincident.h"
#include "locking/redlocklease.h"
#include "monitor/failoverreport.h"
#include "monitor/lockcountforecast.h"
#include "monitor/lockview.h"
#include "record/recorderoptions.h"
#include "record/recordevent.h"
#include "session/forcereleasereport.h"
#include "session/keyspaceeventrecord.h"
#include "session/mastersnapshot.h"
#include "session/redlockreport.h"
#include "session/viewbacklog.h"
#include "trace/tracedcommand.h"
#include "trace/tracelimits.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>

#include <memory>

class QThread;
class QTimer;

namespace lockscope {

class IncidentWatch;
class LockKeeper;
class LockMonitor;
class MasterSet;
class Recorder;
class Redlock;
class TraceSession;

// Everything that talks to Redis, living in the core thread: the masters, the monitor, Redlock and
// force-release, and the audit log. It is created in the GUI thread and moved; every public method
// here must run in the core thread (CoreThread invokes them queued), and results leave by signals.
class CoreService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CoreService)

public:
    // scanProgress leaves at most this often per master (and once more when a pass has read all).
    static constexpr int progressIntervalMs = 100;

    CoreService(LockScopeConfig config, QString auditLogPath);
    ~CoreService() override;

    // Builds the core and, unless `open` is false, connects to the masters and starts scanning them
    // (openMasters()).
    void start(bool open = true);
    // Connects to the masters and starts scanning them, once.
    void openMasters();
    // Closes the masters and drops every core object; the service can then be deleted anywhere.
    void shutdown();
    void refresh();
    void enableNotifications(int master);

    void acquire(quint64 request, const QByteArray& resource, qint64 ttlMs, int retries, bool keepAlive);
    void extend(quint64 request, const QByteArray& resource, qint64 ttlMs);
    void release(quint64 request, const QByteArray& resource);

    void inspectForceRelease(quint64 request, const ForceReleaseRequest& what);
    void executeForceRelease(quint64 request, const ForceReleasePlan& plan);
    // The admin looked and said no: that is recorded too.
    void cancelForceRelease(const ForceReleasePlan& plan);

    // LockJson for these resources (all when empty) and every master, as one JSON document.
    void exportJson(quint64 request, const QByteArrayList& resources);
    // What the diagnosis of `view` needs beyond the view (waiters, the owner's connection).
    void readDiagnosis(quint64 request, const LockView& view);
    // The flight recorder on this service's monitor (docs/manual/flight-recorder.md): started after
    // start(), stopped at once by stopRecording(); note() adds an event the monitor cannot see.
    void startRecording(const RecorderOptions& options);
    void stopRecording();
    void noteRecording(const RecordEvent& event);
    // The window is done with this many of the steps locksChanged sent (BatchQueue::taken): room
    // for more.
    void windowTook(qsizetype steps);
    // Who touches `resource` (docs/manual/trace.md): one trace at a time, a new one ending the last.
    void startTrace(const QByteArray& resource, qint64 durationMs);
    void stopTrace();

    // Steps (views and removals) sent that the window has not taken in yet, at most: past it,
    // changes wait here by name (ViewBacklog) and leave as the window catches up.
    static constexpr qsizetype maxUntaken = 20000;

signals:
    void started(const QStringList& masters, bool readOnly, const QString& auditLogPath);
    void masterChanged(const lockscope::MasterSnapshot& master);
    // The monitor's changes, held back while the window has maxUntaken steps not yet taken in:
    // whoever applies them says so with windowTook().
    void locksChanged(const lockscope::LockBatch& batch);
    void scanProgress(int master, qint64 scanned, qint64 total);
    // While the first scan runs: the locks it is expected to find in all (LockCountForecast), said
    // again whenever the forecast has grown by a quarter.
    void locksForeseen(qint64 locks);
    void initialScanFinished();
    // Keyspace events arrive in bursts of thousands; they leave in bounded batches.
    void keyspaceEvents(const QList<lockscope::KeyspaceEventRecord>& events, int dropped);
    void redlockFinished(const lockscope::RedlockReport& report);
    void forceReleaseInspected(quint64 request, const lockscope::ForceReleasePlan& plan);
    void forceReleaseFinished(const lockscope::ForceReleaseReport& report);
    void leasesChanged(const QList<lockscope::RedlockLease>& leases);
    void leaseLost(const QByteArray& resource, const QString& reason);
    void jsonExported(quint64 request, const QByteArray& json);
    void diagnosisRead(quint64 request, const QByteArray& resource, const lockscope::DiagnosisFacts& facts);
    void problem(const QString& message);
    // The recording shows a lock held by two holders at once (IncidentWatch, while recording).
    void incidentFound(const lockscope::SafetyIncident& incident);
    // A write went through but its audit line could not be written: the window says so loudly.
    void auditLost(const QString& message);
    // A Sentinel entry's failover: its locks are at risk now; the report follows once the new
    // primary has been read.
    void failoverDetected(int master, const lockscope::PrimaryChange& change, int locksAtRisk);
    void failoverReported(const lockscope::FailoverReport& report);
    void traceStarted(const QByteArray& resource, const QStringList& masters);
    void traced(const QList<lockscope::TracedCommand>& commands);
    void traceMasterFailed(const QString& message);
    // Also when it could not start (`stop` says why); `summary` in lines.
    void traceStopped(const QByteArray& resource, const lockscope::TraceStop& stop,
                      const QStringList& summary);

private:
    struct Held
    {
        RedlockLease lease;
        QPointer<LockKeeper> keeper; // null unless kept alive automatically
    };

    void publishMaster(int index);
    // A group's nodes change in bursts (a failover, a resharding): one snapshot per burst.
    void publishMasterSoon(int index);
    void flushMasters();
    void publishLeases();
    void forwardScanProgress(int master, qint64 scanned, qint64 total);
    void finishRedlock(quint64 request, const QString& action, const QByteArray& resource,
                       const RedlockOutcome& outcome);
    void flushEvents();
    void onLocksChanged(const LockBatch& batch);
    void sendBacklog();
    void stopIncidentWatch();

    LockScopeConfig m_config;
    AuditLog m_audit;
    std::unique_ptr<TeamAuditLog> m_team; // with --team-db: every record goes there too
    std::unique_ptr<MasterSet> m_masters;
    std::unique_ptr<LockMonitor> m_monitor;
    std::unique_ptr<Redlock> m_redlock;
    std::unique_ptr<TraceSession> m_trace;
    QPointer<Recorder> m_recorder; // a child of m_monitor: it goes with it
    // Judges what the recorder commits for two holders at once; its reads block on the file, so
    // it has a thread of its own (deleted when the thread finishes).
    std::unique_ptr<QThread> m_incidentThread;
    QHash<QByteArray, Held> m_held;
    QList<QDateTime> m_restartedAt;
    QList<KeyspaceEventRecord> m_events;
    ViewBacklog m_backlog;
    qsizetype m_untaken = 0;       // steps sent that the window has not taken in
    qint64 m_initialScanMark = -1; // initialScanFinished waits for the backlog up to here
    int m_droppedEvents = 0;
    bool m_opened = false; // openMasters() has run
    QTimer* m_eventTimer = nullptr;
    QList<int> m_pendingMasters;
    QHash<int, QPair<qint64, qint64>> m_scanCounts; // keys and locks per master, as last published
    QHash<int, QElapsedTimer> m_progressSent;       // per master: when scanProgress last left
    LockCountForecast m_forecast;
    qint64 m_foreseen = 0; // the last locksForeseen
    QTimer* m_masterTimer = nullptr;
};

} // namespace lockscope
