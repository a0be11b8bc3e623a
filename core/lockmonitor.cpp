#include "lockmonitor.h"

#include "lockformatrecognizer.h"
#include "masterscanner.h"
#include "monotonicclock.h"
#include "quorumcalculator.h"

#include <QDateTime>

namespace lockscope {

namespace {
// One flush handles at most this many resources, so a 100k-lock first pass never blocks the loop.
constexpr int maxPerFlush = 5000;
constexpr double maxBudget = 3;
} // namespace

LockMonitor::LockMonitor(MasterSet* masters, LockScopeConfig config, QObject* parent)
    : QObject(parent), m_masters(masters), m_config(std::move(config))
{
    qRegisterMetaType<LockBatch>();
    for (int i = 0; i < masters->size(); ++i) {
        auto* scanner = new MasterScanner(i, masters->at(i), m_config.monitor, this, this);
        m_scanners << scanner;
        connect(scanner, &MasterScanner::modeChanged, this, &LockMonitor::masterModeChanged);
        connect(scanner, &MasterScanner::scanProgress, this, &LockMonitor::scanProgress);
        connect(scanner, &MasterScanner::keyspaceEvent, this, &LockMonitor::keyspaceEvent);
        connect(scanner, &MasterScanner::passFinished, this, [this](int master) {
            emit passFinished(master);
            if (!m_announcedInitial && isInitialScanDone()) {
                m_announcedInitial = true;
                flush(); // the first picture goes out complete, without waiting for the timer
                emit initialScanFinished();
            }
        });
    }
    connect(masters, &MasterSet::masterStateChanged, this, [this] { markAllDirty(); });
    connect(masters, &MasterSet::masterRestarted, this, [this](int master) { onMasterRestarted(master); });
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_flushTimer, &QTimer::timeout, this, &LockMonitor::flush);
}

LockMonitor::~LockMonitor() = default;

void LockMonitor::start()
{
    for (MasterScanner* s : m_scanners)
        s->start();
}

void LockMonitor::refresh()
{
    for (MasterScanner* s : m_scanners)
        s->requestPass();
}

void LockMonitor::enableNotifications(int master, std::function<void(const RedisError&)> done)
{
    m_scanners.at(master)->enableNotifications(std::move(done));
}

bool LockMonitor::isInitialScanDone() const
{
    bool anyUp = false;
    for (int i = 0; i < m_scanners.size(); ++i) {
        const RedisConnection* c = m_masters->at(i);
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

void LockMonitor::keyObserved(int master, const QByteArray& key, const KeyObservation& observation)
{
    MasterObservation m;
    m.key = observation;
    m.lock = LockFormatRecognizer::recognize(key, observation, m_config.ownerRules,
                                             QDateTime::currentMSecsSinceEpoch());
    if (m.lock.auxiliary)
        return; // lock-signal: lists and the like are shown with their lock, not as locks
    auto it = m_entries.find(key);
    if (it == m_entries.end()) {
        it = m_entries.insert(key, Entry());
        it->observed.resize(m_masters->size());
    }
    MasterObservation& slot = it->observed[master];
    // Only a change of content, or an expiry that moved (an extension), is news; the countdown is not.
    const qint64 projected = slot.key.pttlMs - (observation.readAtMs - slot.key.readAtMs);
    const bool expiryMoved = slot.key.pttlMs >= 0 && observation.pttlMs >= 0
                                 ? qAbs(observation.pttlMs - projected) > 50
                                 : slot.key.pttlMs != observation.pttlMs;
    if (slot == m && !expiryMoved)
        return;
    slot = std::move(m);
    markDirty(key);
}

void LockMonitor::keyRemoved(int master, const QByteArray& key)
{
    auto it = m_entries.find(key);
    if (it == m_entries.end())
        return;
    it->observed[master] = MasterObservation();
    markDirty(key);
}

void LockMonitor::onMasterRestarted(int master)
{
    const QString reason = QStringLiteral("%1 restarted while holding it and may have lost it")
                               .arg(m_masters->at(master)->name());
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it) {
        const MasterObservation& m = it->observed.at(master);
        if (m.key.present) {
            m_risks.insert(it.key(), {m.lock.token, reason});
            markDirty(it.key());
        }
    }
}

void LockMonitor::markDirty(const QByteArray& key)
{
    m_dirty.insert(key);
    scheduleFlushSoon();
}

void LockMonitor::markAllDirty()
{
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it)
        m_dirty.insert(it.key());
    if (!m_dirty.isEmpty())
        scheduleFlushSoon();
}

void LockMonitor::scheduleFlushSoon()
{
    // The timer may be waiting out another resource's coalescing window; fresh news must not queue
    // behind it.
    if (!m_flushTimer.isActive() || m_flushTimer.remainingTime() > 2)
        m_flushTimer.start(2);
}

LockView LockMonitor::computeView(const QByteArray& key, const Entry& entry, qint64 now)
{
    QList<MasterObservation> input = entry.observed;
    for (int i = 0; i < input.size(); ++i) {
        const RedisConnection* c = m_masters->at(i);
        if (!c->isUp()) {
            RedisError e = c->lastError();
            if (!e.isError())
                e = RedisError(ErrorKind::NotConnected, c->name(), RedisConnection::stateName(c->state()));
            input[i].key.error = e;
        }
    }
    LockView view = QuorumCalculator::compute(key, input, m_config.redlock, now);
    if (auto risk = m_risks.find(key); risk != m_risks.end()) {
        if (risk->token == view.token && view.holding > 0) {
            view.atRisk = true;
            view.atRiskReason = risk->reason;
        } else {
            m_risks.erase(risk);
        }
    }
    return view;
}

bool LockMonitor::significantlyDifferent(const LockView& a, const LockView& b)
{
    if (a.status != b.status || a.token != b.token || a.holding != b.holding || a.owner != b.owner ||
        a.format != b.format || a.holders != b.holders || a.atRisk != b.atRisk ||
        a.observations != b.observations)
        return true;
    if ((a.validityMs < 0) != (b.validityMs < 0))
        return true;
    return a.validityMs >= 0 && qAbs(a.validityAt(b.computedAtMs) - b.validityMs) > 50;
}

void LockMonitor::flush()
{
    const qint64 now = monotonicMs();
    LockBatch batch;
    qint64 nextDue = -1;
    int handled = 0;
    for (auto it = m_dirty.begin(); it != m_dirty.end() && handled < maxPerFlush;) {
        const QByteArray key = *it;
        auto entry = m_entries.find(key);
        if (entry == m_entries.end()) {
            it = m_dirty.erase(it);
            continue;
        }
        bool anyPresent = false;
        for (const MasterObservation& m : entry->observed)
            anyPresent = anyPresent || m.key.present;
        auto existing = m_views.find(key);
        if (!anyPresent) {
            if (existing != m_views.end()) {
                batch.removed << key;
                m_views.erase(existing);
            }
            m_entries.erase(entry);
            m_risks.remove(key);
            it = m_dirty.erase(it);
            ++handled;
            continue;
        }
        // Coalesce: a resource already on screen spends its budget; an empty budget waits for a refill.
        if (existing != m_views.end() && m_coalesceMs > 0) {
            if (entry->refilledAtMs >= 0)
                entry->budget =
                    qMin(maxBudget, entry->budget + double(now - entry->refilledAtMs) / m_coalesceMs);
            entry->refilledAtMs = now;
            if (entry->budget < 1) {
                const qint64 due = now + qint64((1 - entry->budget) * m_coalesceMs) + 1;
                nextDue = nextDue < 0 ? due : qMin(nextDue, due);
                ++it;
                continue;
            }
        }
        LockView view = computeView(key, *entry, now);
        if (existing == m_views.end()) {
            batch.added << view;
            m_views.insert(key, view);
        } else if (significantlyDifferent(*existing, view)) {
            batch.changed << view;
            *existing = view;
            entry->budget -= 1;
        }
        it = m_dirty.erase(it);
        ++handled;
    }
    if (!batch.isEmpty())
        emit locksChanged(batch);
    if (!m_dirty.isEmpty()) {
        const int wait = handled >= maxPerFlush ? 0 : int(qMax<qint64>(1, nextDue - monotonicMs()));
        m_flushTimer.start(wait);
    }
}

} // namespace lockscope
