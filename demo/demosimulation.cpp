// SPDX-License-Identifier: Apache-2.0
#include "demo/demosimulation.h"

#include "base/monotonicclock.h"
#include "demo/democlient.h"
#include "demo/demofailover.h"
#include "demo/demofencingcounter.h"
#include "locking/redlock.h"
#include "topology/masterset.h"

#include <QSet>

namespace lockscope {

namespace {

const QList<QByteArray> backgroundResources{"lock:demo:orders", "lock:demo:inventory", "lock:demo:payments"};

// Holds and outages older than this are dropped: the timeline shows a few minutes at most.
constexpr qint64 keepMs = 10 * 60 * 1000;

} // namespace

DemoSimulation::DemoSimulation(DemoCluster* cluster, QObject* parent)
    : QObject(parent), m_cluster(cluster), m_failover(new DemoFailover(this)), m_originMs(monotonicMs())
{
    for (const QByteArray& r : backgroundResources)
        addLane(r);
    connect(cluster, &DemoCluster::masterStateChanged, this, &DemoSimulation::onMasterState);
    connect(&m_storage, &DemoFencedStorage::written, this, [this](const DemoWrite& w) {
        if (w.isViolation())
            ++m_counters.staleAccepted;
        else if (w.accepted)
            ++m_counters.writesAccepted;
        else
            ++m_counters.staleRejected;
        const QString resource = QString::fromUtf8(w.resource);
        if (!w.stale)
            emit note(
                tr("storage accepted %1's write to %2 (fencing %3)").arg(w.client, resource).arg(w.fencing));
        else
            emit note((w.accepted ? tr("VIOLATION: storage accepted %1's stale write to %2 (fencing %3 < %4)")
                                  : tr("storage rejected %1's stale write to %2 (fencing %3 < %4)"))
                          .arg(w.client, resource)
                          .arg(w.fencing)
                          .arg(w.highestSeen));
        emit written(w);
        emit changed();
    });
}

DemoSimulation::~DemoSimulation()
{
    stop();
}

QString DemoSimulation::clientName(int index)
{
    if (index == clientA)
        return QStringLiteral("A");
    if (index == clientB)
        return QStringLiteral("B");
    return QStringLiteral("client-%1").arg(index + 1);
}

DemoTask DemoSimulation::taskFor(const QByteArray& resource, qint64 ttlMs, qint64 workMs)
{
    DemoTask t;
    t.resource = resource;
    // The counter's name must not look like a lock: the monitor would list it.
    t.counterKey = "fencing:" + resource.mid(resource.lastIndexOf(':') + 1);
    t.ttlMs = ttlMs;
    t.workMs = workMs;
    return t;
}

QList<QByteArray> DemoSimulation::clientResources()
{
    QList<QByteArray> out = backgroundResources;
    for (DemoScenario s : allDemoScenarios())
        if (const QByteArray r = demoScenarioResource(s); !r.isEmpty() && !out.contains(r))
            out << r;
    return out;
}

bool DemoSimulation::isClientKey(const QByteArray& key)
{
    static const QSet<QByteArray> keys = [] {
        QSet<QByteArray> all;
        for (const QByteArray& r : clientResources()) {
            all.insert(r);
            all.insert(taskFor(r, 0, 0).counterKey);
        }
        return all;
    }();
    return keys.contains(key);
}

void DemoSimulation::start(const LockScopeConfig& config, bool background)
{
    stop();
    LockScopeConfig own = config;
    own.readOnly = false;
    // Redlock wants the per-master timeout small next to the TTL; 200 ms of 4 s keeps it so and
    // keeps a loaded machine from turning slow answers into failed acquisitions.
    own.redlock.masterTimeoutMs = 200;
    own.redlock.retryCount = 2;
    m_masters = std::make_unique<MasterSet>(own.masters);
    m_redlock = std::make_unique<Redlock>(m_masters.get(), own);
    // The fencing number comes after the lock, outside Redlock's timing: a second is allowed for it.
    // At 200 ms a loaded machine (sanitizer tests three at a time) sometimes had no answer from any
    // master and the client gave back a lock it held ("no fencing number: only 0 of 5 answered").
    m_counter =
        std::make_unique<DemoFencingCounter>(m_masters.get(), qMax(own.redlock.masterTimeoutMs, 1000));
    connect(m_masters.get(), &MasterSet::masterStateChanged, this, [this] { emit changed(); });
    m_masters->open();

    QList<DemoTask> tasks;
    for (const QByteArray& r : backgroundResources)
        tasks << taskFor(r, backgroundTtlMs, 1500);
    for (int i = 0; i < backgroundClients + 2; ++i) {
        auto* c = new DemoClient(i, clientName(i), m_redlock.get(), m_counter.get(), &m_storage, this);
        if (i < backgroundClients)
            c->setBackgroundTasks(tasks);
        connect(c, &DemoClient::acquired, this, &DemoSimulation::onAcquired);
        connect(c, &DemoClient::holdEnded, this, &DemoSimulation::onHoldEnded);
        connect(c, &DemoClient::acquireFailed, this,
                [this](int client, const QByteArray& resource, const RedlockOutcome& outcome) {
                    // A round is decided as soon as a quorum is out of reach, so "too few answered" may
                    // just mean "someone else holds it and we stopped listening". It is a failure for
                    // want of a quorum only when more masters failed than the quorum can spare.
                    int failedVotes = 0;
                    for (const MasterVote& v : outcome.votes)
                        failedVotes += v.answer == MasterVote::Answer::Failed ? 1 : 0;
                    const bool noQuorum = outcome.verdict != WriteVerdict::NotDone &&
                                          failedVotes > outcome.total - outcome.needed;
                    if (noQuorum)
                        ++m_counters.failures;
                    else
                        ++m_counters.busy;
                    if (noQuorum)
                        emit note(
                            tr("%1 could not acquire %2: %3")
                                .arg(clientName(client), QString::fromUtf8(resource), outcome.error.message));
                    emit changed();
                });
        connect(c, &DemoClient::overran, this,
                [this](int client, const QByteArray& resource, qint64 validityMs, qint64 workMs) {
                    ++m_counters.overruns;
                    emit note(tr("%1's work on %2 took %3 ms, longer than its %4 ms validity: write dropped")
                                  .arg(clientName(client), QString::fromUtf8(resource))
                                  .arg(workMs)
                                  .arg(validityMs));
                    emit changed();
                });
        connect(c, &DemoClient::stateChanged, this, [this](int client) { emit clientStateChanged(client); });
        connect(c, &DemoClient::note, this, &DemoSimulation::note);
        m_clients << c;
    }
    setBackgroundRunning(background);
}

void DemoSimulation::stop()
{
    emit stopping();
    for (DemoClient* c : std::as_const(m_clients))
        c->stop();
    qDeleteAll(m_clients);
    m_clients.clear();
    m_counter.reset();
    m_redlock.reset();
    if (m_masters)
        m_masters->close();
    m_masters.reset();
    m_background = false;
}

void DemoSimulation::setBackgroundRunning(bool on)
{
    m_background = on;
    for (int i = 0; i < backgroundClients && i < m_clients.size(); ++i) {
        if (on)
            m_clients.at(i)->startLoop();
        else
            m_clients.at(i)->stopLoop();
    }
}

void DemoSimulation::pauseClient(int index)
{
    DemoClient* c = m_clients.value(index);
    if (!c)
        return;
    const qint64 ttl = c->isHolding() ? c->lease().ttlMs : backgroundTtlMs;
    c->pauseFor(2 * ttl + 1000);
}

void DemoSimulation::healMasters()
{
    emit healRequested();
    for (int i = 0; i < m_cluster->size(); ++i) {
        if (m_cluster->state(i) == DemoCluster::MasterState::Killed)
            m_cluster->restart(i);
        else if (m_cluster->state(i) == DemoCluster::MasterState::Paused)
            m_cluster->resume(i);
    }
}

bool DemoSimulation::isMasterUp(int index) const
{
    return m_masters && index < m_cluster->size() &&
           m_cluster->state(index) == DemoCluster::MasterState::Running &&
           m_masters->at(index)->state() == RedisConnection::State::Up;
}

bool DemoSimulation::allMastersUp() const
{
    if (!m_masters)
        return false;
    for (int i = 0; i < m_masters->size(); ++i)
        if (!isMasterUp(i))
            return false;
    return true;
}

void DemoSimulation::addLane(const QByteArray& resource)
{
    if (!m_lanes.contains(resource))
        m_lanes << resource;
}

void DemoSimulation::onAcquired(int client, const RedlockLease& lease, qint64 fencing)
{
    ++m_counters.acquisitions;
    addLane(lease.resource);
    DemoHold hold;
    hold.client = client;
    hold.resource = lease.resource;
    hold.token = lease.token;
    hold.startMs = monotonicMs();
    hold.validUntilMs = lease.validUntilNs / 1000000;
    hold.validityMs = lease.validityMs;
    hold.fencing = fencing;
    addHold(hold);
    emit note(tr("%1 acquired %2: validity %3 ms (ttl %4 - elapsed %5 - drift %6), fencing %7")
                  .arg(clientName(client), QString::fromUtf8(lease.resource))
                  .arg(lease.validityMs)
                  .arg(lease.ttlMs)
                  .arg(lease.ttlMs - lease.validityMs - (lease.ttlMs / 100 + 2))
                  .arg(lease.ttlMs / 100 + 2)
                  .arg(fencing));
    trim();
    emit changed();
}

void DemoSimulation::addHold(DemoHold hold)
{
    for (DemoHold& other : m_holds) {
        if (other.isOpen() && other.resource == hold.resource && other.client != hold.client) {
            // A holder letting its lease run out stops holding at the end of its validity, even when
            // a loaded machine runs its timer late: that is not a second holder. A paused one is.
            const DemoClient* holder = m_clients.value(other.client);
            if (!(holder && holder->isPaused()) && other.validUntilMs <= hold.startMs)
                continue;
            other.overlapped = true;
            hold.overlapped = true;
        }
    }
    if (hold.overlapped) {
        ++m_counters.doubleHolds;
        emit note(tr("VIOLATION: %1 got %2 while another client still holds it")
                      .arg(clientName(hold.client), QString::fromUtf8(hold.resource)));
    }
    m_holds << hold;
}

void DemoSimulation::recordOutsideHold(int client, const QByteArray& resource, const QByteArray& token,
                                       qint64 ttlMs)
{
    ++m_counters.acquisitions;
    addLane(resource);
    DemoHold hold;
    hold.client = client;
    hold.resource = resource;
    hold.token = token;
    hold.startMs = monotonicMs();
    hold.validUntilMs = hold.startMs + ttlMs;
    hold.validityMs = ttlMs;
    hold.fencing = -1;
    addHold(hold);
    emit note(tr("%1 acquired %2 with SET NX PX %3 on the Sentinel group's primary")
                  .arg(clientName(client), QString::fromUtf8(resource))
                  .arg(ttlMs));
    trim();
    emit changed();
}

void DemoSimulation::endOutsideHolds(const QByteArray& resource, const QString& how)
{
    const qint64 now = monotonicMs();
    for (DemoHold& h : m_holds)
        if (h.isOpen() && h.resource == resource && h.fencing < 0) {
            h.endMs = now;
            h.how = how;
        }
    emit changed();
}

void DemoSimulation::onHoldEnded(int client, const QByteArray& resource, qint64 atMs, const QString& how)
{
    for (qsizetype i = m_holds.size() - 1; i >= 0; --i) {
        DemoHold& h = m_holds[i];
        if (h.isOpen() && h.client == client && h.resource == resource) {
            h.endMs = qMax(h.startMs, atMs);
            h.how = how;
            break;
        }
    }
    emit changed();
}

void DemoSimulation::onMasterState(int master, DemoCluster::MasterState state)
{
    const qint64 now = monotonicMs();
    DemoOutage* open = nullptr;
    for (DemoOutage& o : m_outages)
        if (o.master == master && o.isOpen())
            open = &o;
    if (state == DemoCluster::MasterState::Running) {
        if (open)
            open->endMs = now;
    } else if (state == DemoCluster::MasterState::Killed || state == DemoCluster::MasterState::Paused) {
        if (open && open->kind != state) {
            open->endMs = now;
            open = nullptr;
        }
        if (!open)
            m_outages << DemoOutage{master, state, now, -1};
    }
    emit note(tr("master %1: %2")
                  .arg(master + 1)
                  .arg(state == DemoCluster::MasterState::Running  ? tr("running")
                       : state == DemoCluster::MasterState::Paused ? tr("paused (SIGSTOP)")
                       : state == DemoCluster::MasterState::Killed ? tr("killed")
                                                                   : tr("starting")));
    trim();
    emit changed();
}

void DemoSimulation::trim()
{
    const qint64 before = monotonicMs() - keepMs;
    m_holds.removeIf([before](const DemoHold& h) { return !h.isOpen() && h.endMs < before; });
    m_outages.removeIf([before](const DemoOutage& o) { return !o.isOpen() && o.endMs < before; });
}

} // namespace lockscope
