// SPDX-License-Identifier: Apache-2.0
#include "monitor/lockmonitor.h"

#include "base/monotonicclock.h"
#include "discovery/clusterscanner.h"
#include "discovery/keypool.h"
#include "discovery/masterscanner.h"
#include "formats/lockformatrecognizer.h"
#include "monitor/quorumcalculator.h"
#include "monitor/viewchange.h"
#include "topology/clusterentry.h"

#include <QDateTime>

namespace lockscope {

namespace {
// One flush handles at most this many resources, so a 100k-lock first pass never blocks the loop.
constexpr int maxPerFlush = 5000;
constexpr float maxBudget = 3;
// The flush cadence while the initial scan runs (afterwards a change leaves within 2 ms).
constexpr int initialStepMs = 50;
} // namespace

LockMonitor::LockMonitor(MasterSet* masters, LockScopeConfig config, QObject* parent)
    : QObject(parent), m_masters(masters), m_config(std::move(config)), m_scope(m_config.monitor.patterns),
      m_legacyExpiries([this](const QByteArray& key) {
          if (auto entry = m_table.entries().find(key); entry != m_table.entries().end())
              markDirty(*entry, key);
      }),
      m_gate(m_config.readOnly, nullptr)
{
    qRegisterMetaType<LockBatch>();
    // Independent masters (Redlock's) hold the same keys: their scanners keep each name once. A
    // cluster's shards hold a key each, and one master has nothing to share: no pool, which would
    // only cost its own index.
    int independent = 0;
    for (int i = 0; i < masters->size(); ++i)
        independent += masters->isCluster(i) ? 0 : 1;
    const auto keyPool = independent > 1 ? std::make_shared<KeyPool>() : nullptr;
    for (int i = 0; i < masters->size(); ++i) {
        ClusterScanner* cluster = nullptr;
        EntryScanner* scanner = nullptr;
        if (masters->isCluster(i))
            scanner = cluster =
                new ClusterScanner(i, masters->cluster(i), masters->at(i), m_config.monitor, this, this);
        else
            scanner = new MasterScanner(i, masters->at(i), m_config.monitor, this, keyPool, this);
        m_scanners << scanner;
        m_clusterScanners << cluster;
        connect(scanner, &EntryScanner::modeChanged, this, &LockMonitor::onScannerMode);
        connect(scanner, &EntryScanner::scanProgress, this, [this](int master, qint64 scanned, qint64 total) {
            m_summaries[master].keys = total;
            emit scanProgress(master, scanned, total);
        });
        connect(scanner, &EntryScanner::keyspaceEvent, this, &LockMonitor::keyspaceEvent);
        connect(scanner, &EntryScanner::keyspaceEventsSkipped, this, &LockMonitor::keyspaceEventsSkipped);
        connect(scanner, &EntryScanner::passFinished, this, [this, scanner](int master) {
            m_summaries[master].matched = scanner->knownKeys();
            qint64 locks = 0;
            for (const LockEntry& e : std::as_const(m_table.entries()))
                locks += e.observed.at(master).present() ? 1 : 0;
            m_summaries[master].locks = locks;
            ++m_summaries[master].passes;
            emit passFinished(master);
            maybeAnnounceInitialScan();
        });
    }
    m_scanFailures.resize(masters->size());
    m_summaries.resize(masters->size());
    connect(masters, &MasterSet::masterStateChanged, this, [this](int master) {
        // Down: the master's own error says it. Up again: its scan starts afresh.
        m_scanFailures[master] = RedisError();
        markAllDirty();
        // A master that goes down during the initial scan is no longer waited for: the others may
        // all have finished already, and no further pass would announce it.
        maybeAnnounceInitialScan();
    });
    connect(masters, &MasterSet::masterRestarted, this, [this](int master) { onMasterRestarted(master); });
    connect(masters, &MasterSet::clusterPrimaryRestarted, this, &LockMonitor::onMasterRestarted);
    // A cluster's primary that goes down or comes back changes which of its keys can be read.
    connect(masters, &MasterSet::nodesChanged, this, [this](int master) {
        if (m_masters->isCluster(master))
            markAllDirty();
    });
    connectFailovers();
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_flushTimer, &QTimer::timeout, this, [this] { flush(); });
}

LockMonitor::~LockMonitor() = default;

void LockMonitor::start()
{
    for (EntryScanner* s : m_scanners)
        s->start();
}

void LockMonitor::refresh()
{
    for (EntryScanner* s : m_scanners)
        s->requestPass();
}

void LockMonitor::enableNotifications(int master, std::function<void(const RedisError&)> done)
{
    const QString action = QStringLiteral("enable-events");
    auto record = [this, master, action](const RedisError& error, const QString& outcome) {
        AuditRecord r = AuditRecord::now(action, QByteArray());
        const QString name = m_masters->at(master)->name();
        r.masters = {name};
        r.outcome = outcome;
        r.message = error.isError() ? error.message : QStringLiteral("CONFIG SET notify-keyspace-events");
        if (outcome != QLatin1String("refused"))
            r.results = {{name, error.isError() ? errorKindName(error.kind) : QStringLiteral("enabled"),
                          std::nullopt, error.isError() ? error.message : QString()}};
        return m_gate.record(r);
    };
    if (const RedisError refusal = m_gate.admit(QStringLiteral("enable keyspace events"));
        refusal.isError()) {
        if (refusal.kind == ErrorKind::ReadOnlyMode)
            record(refusal, QStringLiteral("refused"));
        done(refusal);
        return;
    }
    m_scanners.at(master)->enableNotifications([this, record, action, done](const RedisError& error) {
        const RedisError audit =
            record(error, error.isError() ? QStringLiteral("not-done") : QStringLiteral("done"));
        if (audit.isError())
            emit auditLost(audit, action, QByteArray());
        done(error);
    });
}

void LockMonitor::maybeAnnounceInitialScan()
{
    if (m_announcedInitial)
        return;
    if (!isInitialScanDone()) {
        markDeferredDirty(); // resources that were only waiting for this master
        return;
    }
    m_announcedInitial = true;
    markDeferredDirty();
    // The first picture goes out complete, without waiting for the timer.
    while (m_dirtyHead < m_dirty.size() && flush() >= maxPerFlush) {
    }
    m_firstPictureOut = true;
    emit initialScanFinished();
}

void LockMonitor::onScannerMode(int master, NotificationMode mode, const QString& reason)
{
    const bool failed =
        mode == NotificationMode::Unknown && !reason.isEmpty() && m_masters->at(master)->isUp();
    if (failed != cannotScan(master)) {
        m_scanFailures[master] = failed ? RedisError(ErrorKind::ConnectionLost, m_masters->at(master)->name(),
                                                     QStringLiteral("cannot scan: %1").arg(reason))
                                        : RedisError();
        markAllDirty();
        maybeAnnounceInitialScan(); // a master that cannot be scanned is not waited for
    }
    emit masterModeChanged(master, mode, reason);
}

LockMonitor::ScanSummary LockMonitor::scanSummary(int master) const
{
    return m_summaries.value(master);
}

bool LockMonitor::isInitialScanDone() const
{
    bool anyUp = false;
    for (int i = 0; i < m_scanners.size(); ++i) {
        const RedisConnection* c = m_masters->at(i);
        if (c->isUp() && cannotScan(i)) {
            anyUp = true; // answered, and said why it cannot be scanned: nothing to wait for
            continue;
        }
        if (c->isUp()) {
            anyUp = true;
            if (m_scanners.at(i)->completedPasses() == 0)
                return false;
        } else if (c->state() == RedisConnection::State::Connecting) {
            return false;
        }
    }
    return anyUp;
}

namespace {

// Only a change of content, or an expiry that moved (an extension), is news; the countdown is not,
// nor a reading's jitter.
bool expiryMoved(const MasterObservation& before, const KeyObservation& now)
{
    return ViewChange::expiryMoved(before.pttlMs(), before.readAtMs(), now.pttlMs, now.readAtMs);
}

} // namespace

void LockMonitor::keyObserved(int master, const HashedKey& key, KeyObservation&& observation)
{
    LockTable::Entries& entries = m_table.entries();
    auto it = entries.find(key);
    if (it != entries.end()) {
        // Read through a const reference: the list is shared with the shown view, and a write
        // access would copy it even when nothing changed.
        const MasterObservation& current = std::as_const(it->observed).at(master);
        // The same content decodes to the same lock (only a legacy timestamp's verdict moves with
        // the clock): a reconciliation pass over unchanged keys recognises nothing.
        // Under a discover pattern a token's TTL can decide whether it is a lock: a change of
        // expiry there takes the full path.
        const bool judgedByTtl = m_scope.discovers() && current.hasExpiry() != (observation.pttlMs >= 0);
        if (current.sameContent(observation) && current.lock().format != LockFormat::LegacyTimestamp &&
            !judgedByTtl) {
            if (!expiryMoved(current, observation))
                return;
            it->observed[master].setExpiry(observation.pttlMs, observation.readAtMs, observation.sentAtMs);
            markDirty(*it, key);
            return;
        }
    }
    if (it == entries.end() && m_fences.isCounter(key)) {
        if (const std::optional<FenceCounters::Read> read =
                m_fences.observe(master, m_masters->size(), key, observation))
            emit fenceCounterRead(master, read->resource, key, read->value);
        return; // read and recorded, never a lock
    }
    // The masters of one lock normally hold the same value: what one of them read and decoded serves
    // the others (shared, not decoded and kept again).
    const MasterObservation* same = nullptr;
    if (it != entries.end())
        for (const MasterObservation& other : std::as_const(it->observed))
            if (other.present() && other.sameContent(observation) &&
                other.lock().format != LockFormat::LegacyTimestamp) {
                same = &other;
                break;
            }
    MasterObservation m =
        same ? MasterObservation::sharingContent(*same, observation)
             : MasterObservation(observation,
                                 LockFormatRecognizer::recognize(key, observation, m_config.ownerRules,
                                                                 QDateTime::currentMSecsSinceEpoch()));
    if (m.lock().auxiliary)
        return; // lock-signal: lists and the like are shown with their lock, not as locks
    if (!m_scope.isLock(key, m.lock(), observation.pttlMs >= 0)) {
        // Met under a discover pattern only, and not a lock's shape: not a lock, not shown (and no
        // longer shown on this master if it was one before).
        if (it != entries.end() && std::as_const(it->observed).at(master).present())
            keyRemoved(master, key);
        return;
    }
    if (it == entries.end()) {
        it = entries.emplace(key, LockEntry());
        // Exactly one slot per master: resize() would leave growth room, a fifth more per lock.
        it->observed = QList<MasterObservation>(m_masters->size());
    } else if (const MasterObservation& current = std::as_const(it->observed).at(master);
               current == m && !expiryMoved(current, observation)) {
        return;
    }
    it->observed[master] = std::move(m);
    markDirty(*it, key);
}

void LockMonitor::keyRemoved(int master, const HashedKey& key)
{
    LockTable::Entries& entries = m_table.entries();
    auto it = entries.find(key);
    if (it == entries.end())
        return;
    it->observed[master] = MasterObservation();
    markDirty(*it, key);
}

void LockMonitor::onMasterRestarted(int master, const NodeAddress& node)
{
    const QString who =
        node.isValid() ? QStringLiteral("%1 (primary %2)").arg(m_masters->at(master)->name(), node.toString())
                       : m_masters->at(master)->name();
    const QString reason = QStringLiteral("%1 restarted while holding it and may have lost it").arg(who);
    const ClusterScanner* cluster = node.isValid() ? m_clusterScanners.at(master) : nullptr;
    // What the old process held is not what the new one holds: a kept reading of it would count
    // a copy the restart may have lost (and a recorder would take the copy for one seen after the
    // restart, and its loss for a release). Unknown until the new process is read: its first pass
    // reads every key it has again and reports those it has not.
    const RedisError unread(ErrorKind::ConnectionLost, m_masters->at(master)->name(),
                            node.isValid()
                                ? QStringLiteral("primary %1 restarted; not read since").arg(node.toString())
                                : QStringLiteral("restarted; not read since"));
    m_fences.forgetMaster(master);
    for (auto it = m_table.entries().begin(); it != m_table.entries().end(); ++it) {
        const MasterObservation& m = std::as_const(it->observed).at(master);
        if (m.present() && (!cluster || cluster->readFrom(it.key(), node))) {
            m_risks.insert(it.key(), {m.lock().token, reason, cluster ? -1 : master, monotonicMs()});
            it->observed[master].setError(unread);
            markDirty(*it, it.key());
        }
    }
}

bool LockMonitor::awaitsFirstPass(const LockEntry& entry) const
{
    if (m_announcedInitial)
        return false;
    for (int i = 0; i < entry.observed.size(); ++i)
        if (!entry.observed.at(i).present() && m_masters->at(i)->isUp() && !cannotScan(i) &&
            m_scanners.at(i)->completedPasses() == 0)
            return true;
    return false;
}

void LockMonitor::markDeferredDirty()
{
    for (auto it = m_table.entries().begin(); it != m_table.entries().end(); ++it)
        if (it->deferred && !awaitsFirstPass(*it)) {
            it->deferred = false;
            markDirty(*it, it.key());
        }
}

void LockMonitor::markDirty(LockEntry& entry, const HashedKey& key)
{
    // During the initial scan a resource is shown once every master has had its say (read it, or
    // finished a pass without it): the first picture is built without a transient "partial" for
    // every lock, and each view is computed once instead of once per master.
    if (awaitsFirstPass(entry)) {
        entry.deferred = true;
        return;
    }
    if (!entry.dirty) {
        entry.dirty = true;
        m_dirty.append(key);
    }
    scheduleFlushSoon();
}

void LockMonitor::markAllDirty()
{
    for (auto it = m_table.entries().begin(); it != m_table.entries().end(); ++it)
        if (!it->dirty) {
            it->dirty = true;
            m_dirty.append(it.key());
        }
    if (m_dirtyHead < m_dirty.size())
        scheduleFlushSoon();
}

void LockMonitor::scheduleFlushSoon()
{
    // Asking the timer how long it has left costs more than the rest of a key's bookkeeping: once
    // it is known to fire within 2 ms, the next keys of the burst skip the question.
    if (m_flushSoon)
        return;
    // The timer may be waiting out another resource's coalescing window; fresh news must not queue
    // behind it.
    // Until the first complete picture is out, views go out in steps of initialStepMs: a first
    // pass over 100k locks makes a few dozen large batches instead of hundreds of small ones, and
    // nobody is waiting on a single change yet.
    const int soon = m_announcedInitial ? 2 : initialStepMs;
    if (!m_flushTimer.isActive() || m_flushTimer.remainingTime() > soon)
        m_flushTimer.start(soon);
    m_flushSoon = true;
}

QList<RedisError> LockMonitor::downMasters() const
{
    QList<RedisError> down;
    for (int i = 0; i < m_masters->size(); ++i) {
        const RedisConnection* c = m_masters->at(i);
        if (c->isUp() && !cannotScan(i))
            continue;
        if (down.isEmpty())
            down.resize(m_masters->size());
        if (c->isUp()) {
            down[i] = m_scanFailures.at(i);
            continue;
        }
        RedisError e = c->lastError();
        if (!e.isError())
            e = RedisError(ErrorKind::NotConnected, c->name(), RedisConnection::stateName(c->state()));
        down[i] = e;
    }
    return down;
}

QList<int> LockMonitor::partialMasters() const
{
    QList<int> partial;
    for (int i = 0; i < m_masters->size(); ++i)
        if (const ClusterEntry* cluster = m_masters->cluster(i);
            cluster && m_masters->at(i)->isUp() && cluster->isDegraded())
            partial << i;
    return partial;
}

LockView LockMonitor::computeView(const HashedKey& key, const LockEntry& entry, const QList<RedisError>& down,
                                  const QList<int>& partial, qint64 now)
{
    LockView view;
    if (down.isEmpty() && partial.isEmpty()) {
        view = QuorumCalculator::compute(key, entry.observed, m_config.redlock, now);
    } else {
        QList<MasterObservation> input = entry.observed;
        for (int i = 0; i < input.size() && i < down.size(); ++i)
            if (down.at(i).isError())
                input[i].setError(down.at(i));
        // On a cluster that is up, only the keys whose slot's primary is down are unreadable.
        for (int i : partial)
            if (const RedisError e = m_masters->cluster(i)->unreachable(key); e.isError())
                input[i].setError(e);
        view = QuorumCalculator::compute(key, input, m_config.redlock, now);
    }
    view.resourceHash = key.hash();
    if (auto risk = m_risks.find(key); risk != m_risks.end() && risk->restartedMaster >= 0 &&
                                       risk->restartedMaster < entry.observed.size()) {
        // The restarted master read since the restart with the same token: it holds it again.
        const MasterObservation& back = entry.observed.at(risk->restartedMaster);
        if (back.present() && back.readAtMs() > risk->sinceMs && back.lock().token == risk->token)
            m_risks.erase(risk);
    }
    if (auto risk = m_risks.find(key); risk != m_risks.end()) {
        // While the masters that could show the token cannot be read (a Sentinel entry between
        // primaries, a master down) nothing has cleared the risk: it stays, and so does the mark.
        if ((risk->token == view.token && view.holding > 0) ||
            (view.holding == 0 && view.status == LockStatus::Unknown)) {
            view.atRisk = true;
            view.setAtRiskReason(risk->reason);
        } else {
            m_risks.erase(risk);
        }
    }
    return view;
}

int LockMonitor::flush()
{
    m_flushSoon = false;
    const qint64 now = monotonicMs();
    const QList<RedisError> down = downMasters();
    const QList<int> partial = partialMasters();
    LockBatch batch;
    qint64 nextDue = -1;
    int handled = 0;
    QList<HashedKey> waiting; // out of budget: dirty still, looked at again on a later flush
    for (; m_dirtyHead < m_dirty.size() && handled < maxPerFlush; ++m_dirtyHead) {
        const HashedKey key = std::move(m_dirty[m_dirtyHead]);
        auto entry = m_table.entries().find(key);
        if (entry == m_table.entries().end())
            continue;
        bool anyPresent = false;
        for (const MasterObservation& m : std::as_const(entry->observed))
            anyPresent = anyPresent || m.present();
        const bool shown = entry->isShown();
        if (!anyPresent) {
            if (shown)
                batch.removed << key;
            m_table.erase(entry);
            m_risks.remove(key);
            m_legacyExpiries.forget(key);
            ++handled;
            continue;
        }
        // Coalesce: a resource already on screen spends its budget; an empty budget waits for a refill.
        if (shown && m_coalesceMs > 0) {
            if (entry->refilledAtMs >= 0)
                entry->budget =
                    qMin(maxBudget, entry->budget + float(now - entry->refilledAtMs) / float(m_coalesceMs));
            entry->refilledAtMs = now;
            if (entry->budget < 1) {
                const qint64 due = now + qint64((1 - entry->budget) * m_coalesceMs) + 1;
                nextDue = nextDue < 0 ? due : qMin(nextDue, due);
                waiting << key;
                continue;
            }
        }
        entry->dirty = false;
        LockView view = computeView(key, *entry, down, partial, now);
        if (view.format == LockFormat::LegacyTimestamp)
            watchLegacyExpiry(key, *entry, now);
        if (!shown) {
            m_table.show(*entry, SharedLockView(std::move(view)));
            batch.added << entry->view();
        } else if (ViewChange::significant(*entry->view(), view, m_config.redlock.driftFactor)) {
            m_table.show(*entry, SharedLockView(std::move(view)));
            batch.changed << entry->view();
            entry->budget -= 1;
        } else if (down.isEmpty() && partial.isEmpty() &&
                   entry->view()->observations.constData() != entry->observed.constData()) {
            // A reading that moved no more than a clock's jitter detached the entry's list from the one
            // on screen; going back to the shown one keeps a single copy of each lock's observations.
            entry->observed = entry->view()->observations;
        }
        ++handled;
    }
    // Drop what is done; the keys still waiting for budget go behind those not reached yet.
    if (m_dirtyHead == m_dirty.size()) {
        m_dirty = std::move(waiting);
        m_dirtyHead = 0;
    } else {
        if (m_dirtyHead * 2 >= m_dirty.size()) {
            m_dirty.remove(0, m_dirtyHead);
            m_dirtyHead = 0;
        }
        m_dirty << waiting;
    }
    if (!batch.isEmpty())
        emit locksChanged(batch);
    if (m_dirtyHead < m_dirty.size()) {
        const int wait = handled >= maxPerFlush ? 0 : int(qMax<qint64>(1, nextDue - monotonicMs()));
        m_flushTimer.start(wait);
        m_flushSoon = wait <= (m_announcedInitial ? 2 : initialStepMs);
    }
    return handled;
}

void LockMonitor::watchLegacyExpiry(const QByteArray& key, const LockEntry& entry, qint64 now)
{
    qint64 left = -1;
    for (const MasterObservation& m : entry.observed)
        if (m.present() && m.lock().format == LockFormat::LegacyTimestamp && m.lock().timestampLeftMs() >= 0)
            left = qMax(left, m.lock().timestampLeftMs() - (now - m.readAtMs()));
    m_legacyExpiries.watch(key, left, now);
}

void LockMonitor::connectFailovers()
{
    qRegisterMetaType<PrimaryChange>();
    qRegisterMetaType<FailoverReport>();
    connect(m_masters, &MasterSet::primaryChanged, this, &LockMonitor::onPrimaryChanged);
    connect(m_masters, &MasterSet::masterStateChanged, this,
            [this](int master, RedisConnection::State state) {
                if (state == RedisConnection::State::Up)
                    m_failovers.markNewPrimaryUp(master);
            });
    const auto maybeFinish = [this](int master) {
        const PrimaryChange* change = m_failovers.pending(master);
        if (!change)
            return;
        // A cluster stays up through a shard's failover: its report waits until the promoted
        // replica has been scanned and the old primary's keys were looked for there.
        const ClusterScanner* cluster = m_clusterScanners.at(master);
        if (cluster ? cluster->hasCaughtUpWith(change->oldPrimary, change->newPrimary)
                    : m_failovers.newPrimaryUp(master))
            finishFailover(master);
    };
    connect(this, &LockMonitor::passFinished, this, maybeFinish);
    for (const ClusterScanner* cluster : std::as_const(m_clusterScanners))
        if (cluster)
            connect(cluster, &ClusterScanner::primaryPassFinished, this, maybeFinish);
}

bool LockMonitor::heldOn(const LockEntry& entry, int master, FailoverBook::Held* held)
{
    if (master >= entry.observed.size())
        return false;
    const MasterObservation& m = entry.observed.at(master);
    if (!m.present() || m.error().isError())
        return false;
    held->token = m.lock().token;
    held->expiresAtMs = m.pttlMs() >= 0 ? m.readAtMs() + m.pttlMs() : -1;
    return true;
}

void LockMonitor::onPrimaryChanged(int master, const PrimaryChange& change)
{
    // Everything read so far came from the old primary: the new one may not have it (the replica
    // was promoted before the write reached it), and a second client could then take it as well.
    const QString reason = m_failovers.begin(master, change);
    const ClusterScanner* cluster = m_clusterScanners.at(master);
    m_fences.forgetMaster(master); // the new primary's counters are news, whatever they read
    for (auto it = m_table.entries().begin(); it != m_table.entries().end(); ++it) {
        FailoverBook::Held held;
        if (!heldOn(*it, master, &held))
            continue;
        // On a cluster, only the failed shard's keys were on the old primary.
        if (cluster && !cluster->readFrom(it.key(), change.oldPrimary))
            continue;
        m_failovers.hold(master, it.key(), held);
        // Replaces a restart's reason: the failover is what happened.
        m_risks.insert(it.key(), {held.token, reason});
        markDirty(*it, it.key());
    }
    emit failoverDetected(master, change, m_failovers.heldCount(master));
}

void LockMonitor::finishFailover(int master)
{
    const FailoverReport report = m_failovers.finish(
        master,
        [this, master](const QByteArray& key, FailoverBook::Held* held) {
            const auto entry = m_table.entries().constFind(key);
            return entry != m_table.entries().cend() && heldOn(*entry, master, held);
        },
        monotonicMs());
    emit failoverReported(report);
}

} // namespace lockscope
