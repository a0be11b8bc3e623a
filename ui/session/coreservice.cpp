// SPDX-License-Identifier: Apache-2.0
#include "session/coreservice.h"

#include "base/bytesdisplay.h"
#include "base/localidentity.h"
#include "base/monotonicclock.h"
#include "diagnosis/diagnosisreader.h"
#include "diagnosis/incidentwatch.h"
#include "diagnosis/waiterwatch.h"
#include "discovery/masterscanner.h"
#include "export/lockjson.h"
#include "locking/forcerelease.h"
#include "locking/lockkeeper.h"
#include "locking/redlock.h"
#include "monitor/lockmonitor.h"
#include "record/recorder.h"
#include "record/recordingdatabase.h"
#include "session/tracesession.h"
#include "topology/masterset.h"
#include "trace/tracerecordevent.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <QTimer>

#include <limits>
#include <utility>

namespace lockscope {

namespace {
// Enough to see what is going on; a flood beyond this is counted, not listed.
constexpr int maxEventsPerFlush = 200;
constexpr int eventFlushMs = 250;
constexpr int nodesFlushMs = 100;
} // namespace

CoreService::CoreService(LockScopeConfig config, QString auditLogPath)
    : m_config(std::move(config)), m_audit(std::move(auditLogPath), m_config.allowSharedAuditLog)
{}

CoreService::~CoreService()
{
    stopIncidentWatch();
}

void CoreService::start(bool open)
{
    m_masters = std::make_unique<MasterSet>(m_config.masters);
    if (m_config.teamDatabase) {
        // Made here, on the core thread, where every write and its record happen: a Qt SQL
        // connection is used on the thread that opened it.
        m_team = std::make_unique<TeamAuditLog>(*m_config.teamDatabase, m_config.teamDatabasePassword);
        m_audit.setTeam(m_team.get());
    }
    // Writes on a production profile are unlocked by a person for one session: that is recorded
    // before anything can be written, and without the record the session stays read-only.
    QString unlockProblem;
    if (m_config.production && !m_config.readOnly) {
        AuditRecord unlock = AuditRecord::now(QStringLiteral("unlock-writes"), QByteArray());
        for (const RedisConnection* c : m_masters->connections())
            unlock.masters << c->name();
        unlock.outcome = QStringLiteral("done");
        unlock.message = QStringLiteral("writes unlocked for this session on a production profile");
        if (const RedisError error = m_audit.append(unlock); error.isError()) {
            m_config.readOnly = true;
            unlockProblem = tr("Writes stay locked on this production profile: the audit log cannot record "
                               "their unlocking (%1).")
                                .arg(error.message);
        }
    }
    m_monitor = std::make_unique<LockMonitor>(m_masters.get(), m_config);
    m_redlock = std::make_unique<Redlock>(m_masters.get(), m_config, &m_audit);
    m_redlock->setWaitForAllMasters(true); // the window reports what every master did
    m_monitor->setWriteGate(m_redlock->gate());
    const auto lost = [this](const RedisError& error, const QString& action, const QByteArray& resource) {
        emit auditLost(resource.isEmpty()
                           ? tr("%1: %2").arg(action, error.message)
                           : tr("%1 %2: %3").arg(action, escapeBytes(resource), error.message));
    };
    connect(m_redlock.get(), &Redlock::auditLost, this, lost);
    connect(m_monitor.get(), &LockMonitor::auditLost, this, lost);
    m_restartedAt.fill(QDateTime(), m_masters->size());
    m_eventTimer = new QTimer(this);
    m_eventTimer->setSingleShot(true);
    connect(m_eventTimer, &QTimer::timeout, this, &CoreService::flushEvents);
    m_masterTimer = new QTimer(this);
    m_masterTimer->setSingleShot(true);
    connect(m_masterTimer, &QTimer::timeout, this, &CoreService::flushMasters);

    connect(m_masters.get(), &MasterSet::masterStateChanged, this, [this](int i) { publishMaster(i); });
    connect(m_masters.get(), &MasterSet::masterHealthChanged, this, &CoreService::publishMaster);
    connect(m_masters.get(), &MasterSet::nodesChanged, this, &CoreService::publishMasterSoon);
    const auto restarted = [this](int i) {
        m_restartedAt[i] = QDateTime::currentDateTime();
        publishMaster(i);
    };
    connect(m_masters.get(), &MasterSet::masterRestarted, this, restarted);
    // A cluster's primary that restarted: the entry's row and event log say so, as for a master.
    connect(m_masters.get(), &MasterSet::clusterPrimaryRestarted, this, restarted);
    connect(m_monitor.get(), &LockMonitor::masterModeChanged, this, [this](int i) { publishMaster(i); });
    connect(m_monitor.get(), &LockMonitor::locksChanged, this, &CoreService::onLocksChanged);
    connect(m_monitor.get(), &LockMonitor::failoverDetected, this, &CoreService::failoverDetected);
    connect(m_monitor.get(), &LockMonitor::failoverReported, this, &CoreService::failoverReported);
    connect(m_monitor.get(), &LockMonitor::scanProgress, this, &CoreService::forwardScanProgress);
    // A pass's key and lock counts reach the window's status bar (a master whose keys none matched).
    connect(m_monitor.get(), &LockMonitor::passFinished, this, [this](int i) {
        const LockMonitor::ScanSummary scan = m_monitor->scanSummary(i);
        const QPair<qint64, qint64> counts{scan.keys, scan.locks};
        if (m_scanCounts.value(i) != counts || scan.passes == 1) {
            m_scanCounts.insert(i, counts);
            publishMasterSoon(i);
        }
    });
    connect(m_monitor.get(), &LockMonitor::initialScanFinished, this, [this] {
        // Finished once the window has been sent the whole first picture (while changes keep
        // coming, the backlog may never be empty).
        if (m_backlog.isEmpty())
            emit initialScanFinished();
        else
            m_initialScanMark = m_backlog.mark();
    });
    connect(m_monitor.get(), &LockMonitor::keyspaceEvent, this,
            [this](int master, const QByteArray& key, const QByteArray& event) {
                if (m_events.size() < maxEventsPerFlush)
                    m_events << KeyspaceEventRecord{QDateTime::currentDateTime(), master, key, event};
                else
                    ++m_droppedEvents;
                if (!m_eventTimer->isActive())
                    m_eventTimer->start(eventFlushMs);
            });
    connect(m_monitor.get(), &LockMonitor::keyspaceEventsSkipped, this, [this](int, qint64 count) {
        m_droppedEvents = int(qMin<qint64>(m_droppedEvents + count, std::numeric_limits<int>::max()));
        if (!m_eventTimer->isActive())
            m_eventTimer->start(eventFlushMs);
    });

    QStringList names;
    for (const RedisConnection* c : m_masters->connections())
        names << c->name();
    emit started(names, m_config.readOnly, m_audit.path());
    if (!unlockProblem.isEmpty())
        emit problem(unlockProblem);
    if (const RedisError error = m_audit.check(); error.isError())
        emit problem(tr("The audit log cannot be written (%1): writes will be refused.").arg(error.message));
    else if (const QString shared = m_audit.permissionProblem(); !shared.isEmpty())
        emit problem(
            tr("The audit log %1 is %2 (allowed by --allow-shared-audit-log).").arg(m_audit.path(), shared));
    if (open)
        openMasters();
}

void CoreService::openMasters()
{
    if (!m_masters || m_opened)
        return;
    m_opened = true;
    m_masters->open();
    m_monitor->start();
    for (int i = 0; i < m_masters->size(); ++i)
        publishMaster(i);
}

void CoreService::shutdown()
{
    stopIncidentWatch();
    m_trace.reset();
    for (Held& held : m_held)
        delete held.keeper.data();
    m_held.clear();
    if (m_masters)
        m_masters->disconnect(this); // closing reports state changes nobody is left to show
    m_redlock.reset();
    m_monitor.reset();
    if (m_masters)
        m_masters->close();
    m_masters.reset();
    m_audit.setTeam(nullptr);
    m_team.reset(); // on the thread that opened it
    delete m_eventTimer;
    m_eventTimer = nullptr;
    delete m_masterTimer;
    m_masterTimer = nullptr;
    m_pendingMasters.clear();
}

void CoreService::startTrace(const QByteArray& resource, qint64 durationMs)
{
    if (!m_masters)
        return;
    TraceLimits limits;
    limits.durationMs = qBound<qint64>(1000, durationMs, TraceLimits::maxDurationMs);
    m_trace = std::make_unique<TraceSession>(); // the last one ends as it goes
    connect(m_trace.get(), &TraceSession::commands, this, &CoreService::traced);
    // While recording, what the trace sees goes into the recording as evidence (issue #43).
    connect(m_trace.get(), &TraceSession::commands, this,
            [this, resource](const QList<TracedCommand>& batch) {
                if (!m_recorder)
                    return;
                for (const TracedCommand& c : batch)
                    for (RecordEvent& e : TraceRecordEvent::of(resource, c))
                        m_recorder->note(std::move(e));
            });
    connect(m_trace.get(), &TraceSession::masterFailed, this, &CoreService::traceMasterFailed);
    connect(m_trace.get(), &TraceSession::stopped, this,
            [this, resource](const TraceStop& s, const QStringList& lines) {
                emit traceStopped(resource, s, lines);
            });
    const QString why =
        m_trace->start(*m_masters, m_audit, MasterSet::namesOf(m_config.masters), resource, limits);
    if (!why.isEmpty()) {
        m_trace.reset();
        emit traceStopped(resource, TraceStop{TraceStop::Reason::NoMaster, why}, {});
        return;
    }
    emit traceStarted(resource, m_trace->tracedMasters());
}

void CoreService::stopTrace()
{
    if (m_trace)
        m_trace->stop();
}

void CoreService::refresh()
{
    if (m_monitor)
        m_monitor->refresh();
}

void CoreService::enableNotifications(int master)
{
    if (!m_monitor)
        return;
    m_monitor->enableNotifications(master, [this, master](const RedisError& error) {
        if (error.isError())
            emit problem(tr("Enabling keyspace events failed: %1").arg(error.toString()));
        publishMaster(master);
    });
}

void CoreService::publishMaster(int index)
{
    if (!m_monitor)
        return;
    const RedisConnection* c = m_masters->at(index);
    MasterSnapshot s;
    s.index = index;
    s.name = c->name();
    s.state = c->state();
    s.error = c->isUp() ? QString() : c->lastError().message;
    s.health = c->health();
    s.mode = m_monitor->scanner(index)->mode();
    s.modeReason = m_monitor->scanner(index)->modeReason();
    s.restartedAt = m_restartedAt.value(index);
    s.timeoutMs = c->options().commandTimeoutMs;
    s.sentinel = m_masters->isSentinel(index);
    if (const NodeAddress primary = m_masters->primaryAddress(index); primary.isValid())
        s.primary = primary.toString();
    s.cluster = m_masters->isCluster(index);
    s.nodes = m_masters->nodes(index);
    if (const LockMonitor::ScanSummary scan = m_monitor->scanSummary(index); scan.passes > 0) {
        s.keyCount = scan.keys;
        s.matchedKeys = scan.matched;
        s.lockKeys = scan.locks;
    }
    m_pendingMasters.removeAll(index); // this snapshot has the nodes already
    emit masterChanged(s);
}

void CoreService::publishMasterSoon(int index)
{
    if (!m_pendingMasters.contains(index))
        m_pendingMasters << index;
    if (m_masterTimer && !m_masterTimer->isActive())
        m_masterTimer->start(nodesFlushMs);
}

void CoreService::flushMasters()
{
    const QList<int> pending = std::exchange(m_pendingMasters, {});
    for (int index : pending)
        publishMaster(index);
}

void CoreService::forwardScanProgress(int master, qint64 scanned, qint64 total)
{
    // One report per SCAN page: thousands a second from every master over a large keyspace, and each
    // a queued event the GUI thread must take (in bursts, when it was busy). The status bar needs a
    // few a second; a pass's last report (all scanned) always goes.
    if (!m_monitor->isInitialScanDone()) {
        m_forecast.setProgress(master, scanned, total);
        const qint64 expected = m_forecast.expected(m_monitor->knownResources());
        if (expected > m_foreseen + m_foreseen / 4) {
            m_foreseen = expected;
            emit locksForeseen(expected);
        }
    }
    QElapsedTimer& last = m_progressSent[master];
    if (scanned < total && last.isValid() && last.elapsed() < progressIntervalMs)
        return;
    last.start();
    emit scanProgress(master, scanned, total);
}

void CoreService::publishLeases()
{
    QList<RedlockLease> leases;
    for (const Held& held : std::as_const(m_held))
        leases << held.lease;
    emit leasesChanged(leases);
}

void CoreService::finishRedlock(quint64 request, const QString& action, const QByteArray& resource,
                                const RedlockOutcome& outcome)
{
    emit redlockFinished(RedlockReport{request, action, resource, outcome});
}

void CoreService::acquire(quint64 request, const QByteArray& resource, qint64 ttlMs, int retries,
                          bool keepAlive)
{
    m_redlock->settings().retryCount = retries;
    m_redlock->acquire(
        resource, ttlMs, LocalIdentity::ownerTag(),
        [this, request, resource, keepAlive](const RedlockOutcome& outcome) {
            if (outcome.ok()) {
                Held held{outcome.lease, nullptr};
                if (keepAlive) {
                    auto* keeper = new LockKeeper(m_redlock.get(), outcome.lease, this);
                    connect(keeper, &LockKeeper::extended, this, [this, resource](const RedlockLease& lease) {
                        m_held[resource].lease = lease;
                        publishLeases();
                    });
                    connect(keeper, &LockKeeper::lost, this, [this, resource, keeper](const QString& reason) {
                        m_held.remove(resource);
                        keeper->deleteLater();
                        publishLeases();
                        emit leaseLost(resource, reason);
                    });
                    keeper->start();
                    held.keeper = keeper;
                }
                m_held.insert(resource, held);
                publishLeases();
            }
            finishRedlock(request, QStringLiteral("acquire"), resource, outcome);
        });
}

void CoreService::extend(quint64 request, const QByteArray& resource, qint64 ttlMs)
{
    const auto it = m_held.constFind(resource);
    if (it == m_held.constEnd()) {
        RedlockOutcome refused;
        refused.error = {ErrorKind::InvalidArgument, QString(),
                         tr("this window does not hold %1").arg(escapeBytes(resource))};
        finishRedlock(request, QStringLiteral("extend"), resource, refused);
        return;
    }
    m_redlock->extend(it->lease, ttlMs, [this, request, resource](const RedlockOutcome& outcome) {
        if (outcome.ok() && m_held.contains(resource)) {
            m_held[resource].lease = outcome.lease;
            publishLeases();
        }
        finishRedlock(request, QStringLiteral("extend"), resource, outcome);
    });
}

void CoreService::release(quint64 request, const QByteArray& resource)
{
    const auto it = m_held.constFind(resource);
    if (it == m_held.constEnd()) {
        RedlockOutcome refused;
        refused.error = {ErrorKind::InvalidArgument, QString(),
                         tr("this window does not hold %1").arg(escapeBytes(resource))};
        finishRedlock(request, QStringLiteral("release"), resource, refused);
        return;
    }
    const Held held = *it;
    auto done = [this, request, resource](const RedlockOutcome& outcome) {
        // Released or not, a lease we tried to give up is no longer one we rely on.
        if (outcome.verdict != WriteVerdict::Refused) {
            if (LockKeeper* keeper = m_held.value(resource).keeper)
                keeper->deleteLater();
            m_held.remove(resource);
            publishLeases();
        }
        finishRedlock(request, QStringLiteral("release"), resource, outcome);
    };
    if (held.keeper)
        held.keeper->release(done);
    else
        m_redlock->release(held.lease, done);
}

void CoreService::inspectForceRelease(quint64 request, const ForceReleaseRequest& what)
{
    ForceRelease::inspect(*m_masters, m_config, what, [this, request](const ForceReleasePlan& plan) {
        emit forceReleaseInspected(request, plan);
    });
}

void CoreService::executeForceRelease(quint64 request, const ForceReleasePlan& plan)
{
    ForceRelease::execute(
        *m_masters, m_config, &m_audit, plan, [this, request, plan](const ForceReleaseOutcome& outcome) {
            if (outcome.auditLost())
                emit auditLost(tr("force-release %1: %2")
                                   .arg(escapeBytes(plan.request.resource), outcome.auditError.message));
            emit forceReleaseFinished(ForceReleaseReport{request, plan, outcome});
        });
}

void CoreService::cancelForceRelease(const ForceReleasePlan& plan)
{
    const RedisError error = ForceRelease::recordCancelled(m_audit, *m_masters, plan,
                                                           QStringLiteral("not confirmed in the window"));
    if (error.isError())
        emit problem(tr("Could not record the cancellation: %1").arg(error.message));
}

void CoreService::exportJson(quint64 request, const QByteArrayList& resources)
{
    const qint64 now = monotonicMs();
    std::string locks;
    const auto add = [&](const LockView& v) {
        locks += locks.empty() ? '[' : ',';
        LockJson::appendLock(locks, v, *m_masters, now);
    };
    const LockTable& views = m_monitor->locks();
    if (resources.isEmpty()) {
        for (const LockView& v : views)
            add(v);
    } else {
        for (const QByteArray& r : resources)
            if (const SharedLockView* view = views.find(r))
                add(**view);
    }
    locks += locks.empty() ? "[]" : "]";
    QJsonArray masters;
    for (int i = 0; i < m_masters->size(); ++i)
        masters << LockJson::master(*m_masters, i, m_monitor->scanner(i)->mode());
    const QJsonObject root{
        {QStringLiteral("masters"), masters},
        {QStringLiteral("locks"), QJsonDocument::fromJson(QByteArray::fromStdString(locks)).array()}};
    emit jsonExported(request, QJsonDocument(root).toJson(QJsonDocument::Indented));
}

void CoreService::readDiagnosis(quint64 request, const LockView& view)
{
    if (!m_masters)
        return;
    auto* reader = new DiagnosisReader(m_masters.get(), this);
    reader->read(view, [this, reader, request, resource = view.resource](const DiagnosisFacts& facts) {
        emit diagnosisRead(request, resource, facts);
        reader->deleteLater();
    });
}

void CoreService::onLocksChanged(const LockBatch& batch)
{
    const qsizetype steps = batch.steps();
    if (m_backlog.isEmpty() && m_untaken + steps <= maxUntaken) {
        m_untaken += steps;
        emit locksChanged(batch);
        return;
    }
    m_backlog.add(batch);
    sendBacklog();
}

void CoreService::windowTook(qsizetype steps)
{
    m_untaken = qMax<qsizetype>(0, m_untaken - steps);
    sendBacklog();
}

void CoreService::sendBacklog()
{
    // Refilled in large steps, not one slice at a time: each batch is a queued signal of its own.
    const qsizetype room = maxUntaken - m_untaken;
    if (m_backlog.isEmpty() || !m_monitor || room < maxUntaken / 2)
        return;
    const LockBatch batch = m_backlog.take(room, m_monitor->locks());
    if (const qsizetype steps = batch.steps(); steps > 0) {
        m_untaken += steps;
        emit locksChanged(batch);
    }
    if (m_initialScanMark >= 0 && m_backlog.hasLeft(m_initialScanMark)) {
        m_initialScanMark = -1;
        emit initialScanFinished();
    }
}

void CoreService::flushEvents()
{
    // Handed over: clearing the list the queued signal still shares would allocate a new one.
    emit keyspaceEvents(std::exchange(m_events, {}), m_droppedEvents);
    m_droppedEvents = 0;
}

void CoreService::startRecording(const RecorderOptions& options)
{
    if (!m_monitor || m_recorder || m_masters->size() == 0)
        return;
    auto* recorder = new Recorder(options, m_monitor.get());
    const auto failed = [this](const RedisError& error) {
        if (error)
            emit problem(tr("recording: %1").arg(error.message));
    };
    connect(recorder->writer(), &RecordingSink::opened, this, failed);
    connect(recorder->writer(), &RecordingSink::failed, this, failed);
    recorder->attach(m_monitor.get());
    WaiterWatch::recordInto(recorder, m_masters.get(), m_monitor.get());
    m_recorder = recorder;
    stopIncidentWatch();
    m_incidentThread = std::make_unique<QThread>();
    m_incidentThread->setObjectName(QStringLiteral("incident watch"));
    auto* watch =
        new IncidentWatch(recorder->path().isEmpty() ? RecordingDatabase::defaultPath() : recorder->path(),
                          recorder->options().databasePassword);
    watch->moveToThread(m_incidentThread.get());
    connect(m_incidentThread.get(), &QThread::finished, watch, &QObject::deleteLater);
    connect(watch, &IncidentWatch::found, this, &CoreService::incidentFound);
    watch->follow(recorder->writer());
    m_incidentThread->start(QThread::LowPriority);
}

void CoreService::stopRecording()
{
    delete m_recorder.data(); // ends its session: from now on nobody watches, as far as it knows
    stopIncidentWatch();
}

void CoreService::stopIncidentWatch()
{
    if (!m_incidentThread)
        return;
    m_incidentThread->quit();
    m_incidentThread->wait();
    m_incidentThread.reset();
}

void CoreService::noteRecording(const RecordEvent& event)
{
    if (m_recorder)
        m_recorder->note(event);
}

} // namespace lockscope
