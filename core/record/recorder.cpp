// SPDX-License-Identifier: Apache-2.0
#include "record/recorder.h"

#include "audit/teamdatabaseurl.h"
#include "base/bytesdisplay.h"
#include "base/monotonicclock.h"
#include "discovery/entryscanner.h"
#include "discovery/keyspaceeventkind.h"
#include "monitor/lockmonitor.h"
#include "monitor/mastereventtext.h"
#include "record/cpustopwatch.h"
#include "record/postgresrecordingwriter.h"
#include "record/recordingdatabase.h"
#include "record/recordingwriter.h"
#include "record/viewholders.h"

#include <QDateTime>

#include <algorithm>

namespace lockscope {

Recorder::Recorder(RecorderOptions options, QObject* parent)
    : Recorder(
          std::move(options),
          [](const RecorderOptions& o, std::shared_ptr<RecordingSink::Counters> counters) -> RecordingSink* {
              if (TeamDatabaseUrl::isPostgresUrl(o.path))
                  return new PostgresRecordingWriter(o, std::move(counters));
              return new RecordingWriter(o, std::move(counters));
          },
          parent)
{}

Recorder::Recorder(RecorderOptions options, const SinkFactory& makeSink, QObject* parent)
    : QObject(parent), m_options([&options] {
          if (options.path.isEmpty())
              options.path = RecordingDatabase::defaultPath();
          return std::move(options);
      }()),
      m_counters(std::make_shared<RecordingSink::Counters>()),
      m_pipe(makeSink(m_options, m_counters), m_counters, this) // the sink moves to its thread in attach()
{}

Recorder::~Recorder() = default;

Recorder* Recorder::record(LockMonitor* monitor, RecorderOptions options)
{
    auto* recorder = new Recorder(std::move(options), monitor);
    recorder->attach(monitor);
    return recorder;
}

void Recorder::attach(LockMonitor* monitor)
{
    Q_ASSERT(!m_monitor);
    m_monitor = monitor;
    MasterSet* masters = monitor->masters();
    m_masterCount = masters->size();
    m_downMs = QList<qint64>(m_masterCount, -1);
    m_masterState = QList<int>(m_masterCount, -1);
    QStringList names;
    for (int i = 0; i < m_masterCount; ++i) {
        names << masters->at(i)->name();
        monitor->scanner(i)->anchorEvents(); // when its deletes ran, for DeletedAfter
    }
    m_pipe.start(names, m_options.flushIntervalMs);

    connect(monitor, &LockMonitor::locksChanged, this, &Recorder::onBatch);
    connect(monitor, &LockMonitor::keyspaceEvent, this, &Recorder::onKeyspaceEvent);
    connect(masters, &MasterSet::masterStateChanged, this,
            [this](int i, RedisConnection::State state, const RedisError& reason) {
                if (state == RedisConnection::State::Up && m_masterState.value(i) != 1) {
                    m_masterState[i] = 1;
                    masterEvent(i, RecordEvent::Kind::MasterUp, QString());
                } else if (state == RedisConnection::State::Down && m_masterState.value(i) != 0) {
                    m_masterState[i] = 0;
                    m_downMs[i] = monotonicMs();
                    markInterrupted(i, false);
                    masterEvent(i, RecordEvent::Kind::MasterDown, reason.message);
                }
            });
    connect(masters, &MasterSet::masterRestarted, this,
            [this](int i, const QByteArray& oldRunId, const QByteArray& newRunId) {
                markInterrupted(i, true);
                masterEvent(i, RecordEvent::Kind::MasterRestarted,
                            QStringLiteral("run_id %1 → %2: locks it held may be lost")
                                .arg(escapeBytes(oldRunId.left(12)), escapeBytes(newRunId.left(12))));
            });
    connect(masters, &MasterSet::clusterPrimaryRestarted, this, [this](int i, const NodeAddress& primary) {
        markInterrupted(i, true);
        masterEvent(i, RecordEvent::Kind::MasterRestarted, MasterEventText::primaryRestarted(primary));
    });
    connect(monitor, &LockMonitor::failoverDetected, this,
            [this](int i, const PrimaryChange& change, int atRisk) {
                masterEvent(i, RecordEvent::Kind::Failover,
                            QStringLiteral("%1 → %2: %3 lock(s) at risk")
                                .arg(change.oldPrimary.toString(), change.newPrimary.toString())
                                .arg(atRisk));
            });
    connect(monitor, &LockMonitor::failoverReported, this, &Recorder::onFailoverReport);
    connect(monitor, &LockMonitor::fenceCounterRead, this,
            [this](int i, const QByteArray& resource, const QByteArray& counter, qint64 value) {
                push(fenceCounterEvent(i, resource, counter, value));
            });

    for (int i = 0; i < m_masterCount; ++i) {
        const bool up = masters->at(i)->isUp();
        m_masterState[i] = up ? 1 : 0;
        masterEvent(i, up ? RecordEvent::Kind::MasterUp : RecordEvent::Kind::MasterDown,
                    up ? QString() : masters->at(i)->lastError().message);
    }
    for (const LockView& view : monitor->locks())
        onView(view, true);
}

void Recorder::masterEvent(int master, RecordEvent::Kind kind, const QString& detail)
{
    RecordEvent e;
    e.kind = kind;
    e.master = master;
    e.detail = detail;
    push(std::move(e));
}

RecordEvent Recorder::resourceEvent(RecordEvent::Kind kind, const QByteArray& resource,
                                    const Tracked& tracked) const
{
    RecordEvent e;
    e.kind = kind;
    e.resource = resource;
    e.token = tracked.token;
    e.holding = tracked.holding;
    e.holders = tracked.holders;
    return e;
}

void Recorder::onKeyspaceEvent(int master, const QByteArray& key, const QByteArray& event, qint64 ranAfterMs)
{
    if (ranAfterMs >= 0 && isDeleteEvent(event))
        anchorDelete(master, key, ranAfterMs);
    if (!isExpiryEvent(event) && !isDeleteEvent(event))
        return;
    const bool expiry = isExpiryEvent(event);
    const qint64 now = monotonicMs();
    const qint64 wallNow = QDateTime::currentMSecsSinceEpoch();
    if (const auto known = m_keyspace.find(key); known != m_keyspace.end()) { // one lookup: in place
        known->add(expiry, master, now, wallNow);
        return;
    }
    if (m_keyspace.size() > 200000) // bounded: keys that never become locks would otherwise pile up
        m_keyspace.clear();
    m_keyspace.insert(key, KeyspaceNote(expiry, master, now, wallNow));
}

void Recorder::anchorDelete(int master, const QByteArray& resource, qint64 ranAfterMs)
{
    // Only beside another holder, where it can tell two holders at once from one after the other:
    // an event per release would add a row to most of what a busy recording stores.
    const auto it = m_tracked.constFind(resource);
    if (it == m_tracked.cend() || !it->contested || master < 0 || master >= 64)
        return;
    const quint64 bit = quint64(1) << master;
    const Tracked* held = (it->holders & bit) ? &*it : nullptr;
    if (const auto sides = m_sides.constFind(resource); !held && sides != m_sides.cend())
        for (const Tracked& side : *sides)
            held = held ? held : (side.holders & bit) ? &side : nullptr;
    if (held)
        push(deletedAfterEvent(master, resource, held->token, ranAfterMs));
}

void Recorder::anchorValidityBeside(const QByteArray& resource, const QByteArray& token)
{
    const qint64 now = monotonicMs();
    const auto anchor = [&](const Tracked& t) {
        const qint64 left = t.startMs + qint64(t.validFloorAfterStartMs) - now;
        if (t.token != token && t.validFloorAfterStartMs > 0 && left > 0)
            push(validThroughEvent(resource, t.token, left));
    };
    if (const auto it = m_tracked.constFind(resource); it != m_tracked.cend())
        anchor(*it);
    if (const auto sides = m_sides.constFind(resource); sides != m_sides.cend())
        for (const Tracked& side : *sides)
            anchor(side);
}

void Recorder::onBatch(const LockBatch& batch)
{
    const CpuStopwatch cpu(m_counters->observeCpuNs);
    for (const LockView& v : batch.added)
        onView(v, false);
    for (const LockView& v : batch.changed)
        onView(v, false);
    for (const QByteArray& r : batch.removed)
        onRemoved(r);
}

void Recorder::observe(const LockView& view, bool viewsToken, quint64 unreachable, Tracked& tracked,
                       bool* extended)
{
    int holding = view.holding;
    quint64 holders = viewsToken ? holdersMask(view.holders) : holdersMask(view, tracked.token, &holding);
    qint64 deadline = -1;
    const qint64 now = monotonicMs();
    static const MasterObservation unread;
    for (int i = 0; i < m_masterCount; ++i) {
        // By reference: a copy per master and view was a pair of atomic reference counts each.
        const MasterObservation& obs = i < view.observations.size() ? view.observations.at(i) : unread;
        if (i < 64 ? (unreachable >> i) & 1 : obs.error().isError()) {
            // Unreachable: what it showed last still stands (a master down is a master event, not
            // a change of holders).
            if (i < 64)
                holders |= tracked.holders & (quint64(1) << i);
            continue;
        }
        PerMaster& m = tracked.masters[i];
        const int type = obs.present() ? m_types.indexOf(obs.type()) : 0;
        if (type != 0 && m.type != 0 && type != m.type) {
            RecordEvent e = resourceEvent(RecordEvent::Kind::TypeChanged, view.resource, tracked);
            e.master = i;
            // TYPE replies are the server's bytes: stored escaped, like every other text it sent.
            e.detail =
                QStringLiteral("%1 → %2").arg(escapeBytes(m_types.at(m.type)), escapeBytes(m_types.at(type)));
            push(std::move(e));
        }
        m.type = type;
        if (!(holders & (quint64(1) << i)) || !obs.present()) {
            // Gone from this master before its expiry, and not by a restart: the holder released it
            // (a Redlock release reaches the masters one by one; one may still let it expire). A
            // master that holds another token now was taken, not let go (a contested lock).
            if (!obs.present() && m.expiresAt > now + expiryToleranceMs && tracked.releasedAtMs < 0 &&
                !interrupted(i, tracked))
                tracked.releasedAtMs = QDateTime::currentMSecsSinceEpoch();
            m.pttl = -2;
            m.expiresAt = -1;
            continue;
        }
        // The expiry from the TTL as read: from the kept (capped) one, a TTL past 17 years would
        // seem to move with each read.
        const qint64 pttl = qMin(obs.pttlMs(), PerMaster::maxTtlMs);
        const qint64 expiresAt = obs.pttlMs() >= 0
                                     ? qMin(obs.readAtMs() + qMin(obs.pttlMs(), PerMaster::maxExpiresAtMs),
                                            PerMaster::maxExpiresAtMs)
                                     : -1;
        // A TTL only counts down: one that went up was extended. When reads follow each extension
        // (keyspace events), the TTL read may be the same each time, but the expiry it implies
        // moved: later by more than a read's delay can explain (10% of the TTL, from 100 to 250 ms).
        const bool wentUp = m.pttl >= 0 && pttl > m.pttl;
        const bool moved =
            m.expiresAt >= 0 && expiresAt - m.expiresAt > qBound(qint64(100), pttl / 10, qint64(250));
        // A Redlock extension shows on each master in turn, so the episode counts the most any one
        // master saw.
        if (extended && (wentUp || moved)) {
            // Past the count's cap (16.7 million in one episode) each one is still told.
            if (m.extensions == PerMaster::maxExtensions) {
                *extended = true;
            } else if (qint64(++m.extensions) > tracked.episodeExtensions) {
                tracked.episodeExtensions = int(m.extensions);
                *extended = true;
            }
        }
        m.pttl = pttl;
        m.expiresAt = expiresAt;
        if (pttl >= 0)
            deadline = qMax(deadline, expiresAt);
    }
    if (holders != 0)
        tracked.deadlineMs = deadline;
    tracked.holders = holders;
    tracked.everHolders |= holders;
    tracked.holding = holding;
    // A floor from the first read on a quorum and from each extension's, when the TTL read is about
    // the one set: the drift allowance is counted on the TTL read, and the holder's on the TTL set.
    const bool ttlFresh = tracked.validFloorAfterStartMs == 0 || (extended && *extended);
    if (const qint64 floor = viewsToken && ttlFresh && !tracked.seenHeld ? validityFloorMs(view) : -1;
        floor > tracked.startMs)
        tracked.validFloorAfterStartMs =
            qMax<qint64>(tracked.validFloorAfterStartMs,
                         qMin(floor - tracked.startMs, Tracked::maxValidFloorAfterStartMs));
}

void Recorder::startEpisode(const LockView& view, const QByteArray& token, bool viewsToken,
                            quint64 unreachable, RecordEvent::Kind kind, Tracked& tracked)
{
    // Reset in place (an episode starts at every change of holder, thousands a second); the key
    // types carry over.
    tracked.token = token;
    tracked.startMs = monotonicMs();
    tracked.holders = 0;
    tracked.everHolders = 0;
    tracked.holding = 0;
    tracked.masters.resize(m_masterCount);
    for (qsizetype i = 0; i < tracked.masters.size(); ++i) {
        PerMaster& m = tracked.masters[i];
        m.pttl = -2;
        m.expiresAt = -1;
        m.extensions = 0;
        m.restartedUnder = 0;
        m.downUnder = 0;
    }
    tracked.episodeExtensions = 0;
    tracked.validFloorAfterStartMs = 0;
    tracked.seenHeld = kind == RecordEvent::Kind::Seen;
    tracked.deadlineMs = -1;
    tracked.lostOnFailover = false;
    tracked.releasedAtMs = -1;
    tracked.atRisk = view.atRisk;
    observe(view, viewsToken, unreachable, tracked, nullptr);
    RecordEvent e = resourceEvent(kind, view.resource, tracked);
    e.owner = viewsToken ? view.owner : QString();
    e.ttlMs = viewsToken ? view.validityAt(tracked.startMs) : -1; // as of the event, the view's is older
    e.detail = view.atRisk ? view.atRiskReason() : QString();
    push(std::move(e));
}

void Recorder::onView(const LockView& view, bool initial)
{
    bool present = false;
    quint64 unreachable = 0; // masters beyond 64 are asked again in observe()
    bool anyUnreachable = false;
    for (qsizetype i = 0; i < view.observations.size(); ++i) {
        const MasterObservation& o = view.observations.at(i);
        present = present || o.present();
        if (o.error().isError()) {
            anyUnreachable = true;
            if (i < 64)
                unreachable |= quint64(1) << i;
        }
    }
    if (!present) {
        onRemoved(view.resource);
        return;
    }
    const HashedKey key = view.key();
    auto it = m_tracked.find(key);
    // No holder readable, because a master is down: nothing is known to have changed yet.
    if (view.token.isEmpty() && view.holders.isEmpty() && anyUnreachable)
        return;
    if (it == m_tracked.end()) {
        // Built in its hash entry: nothing to move.
        // Held before the monitor's first complete picture: seen, not seen being taken.
        const bool seen = initial || !m_monitor->hasShownFirstPicture();
        it = m_tracked.emplace(key);
        startEpisode(view, view.token, true, unreachable,
                     seen ? RecordEvent::Kind::Seen : RecordEvent::Kind::Acquired, *it);
        if (view.status == LockStatus::Contested)
            followSides(view, unreachable, *it);
        return;
    }
    Tracked& tracked = it.value();
    const qint64 now = monotonicMs();
    // Several tokens at once (a contested lock): the one tracked stays the episode's while some
    // master still holds it, whichever has more masters now; the others are episodes of their own.
    const bool contested = view.status == LockStatus::Contested || tracked.contested;
    if (view.token == tracked.token) {
        // Read again after a delete or an expiry: set again with the same token (a Redisson thread
        // taking its lock again), and the note is not of this holder's end. Unless read before it.
        const auto note = m_keyspace.find(view.resource);
        const bool older = note != m_keyspace.end() && note->mayPredate(view);
        if (note != m_keyspace.end() && !older)
            m_keyspace.erase(note);
        follow(view, true, unreachable, tracked);
        if (older)
            note->tellAgain();
    } else if (int holding = 0; contested && (holdersMask(view, tracked.token, &holding) != 0 ||
                                              (tracked.holders & unreachable))) {
        // Held on a master that answers, or on one that does not now (what it showed stands).
        follow(view, false, unreachable, tracked);
    } else if (QList<Tracked>* sides = tracked.contested ? &m_sides[view.resource] : nullptr;
               sides && std::any_of(sides->cbegin(), sides->cend(),
                                    [&view](const Tracked& t) { return t.token == view.token; })) {
        // The tracked token is gone; the one held beside it goes on, announced already.
        endEpisode(view.resource, tracked, now, writtenOver(view, tracked.token, tracked.holders));
        const auto side = std::find_if(sides->begin(), sides->end(),
                                       [&view](const Tracked& t) { return t.token == view.token; });
        tracked = std::move(*side);
        sides->erase(side);
        tracked.contested = !sides->isEmpty();
        follow(view, true, unreachable, tracked);
    } else {
        // In place: the key never went away between two reads. The server said how the old token
        // went (keyspace events): deleted, the holder released it and the next took it at once (a
        // fast handover), or it expired. Past its expiry it expired and was taken again. Else
        // another holder replaced it (a steal, a force-release and re-take, a double grant after a
        // failover, or a release too quick to see without keyspace events). A replacement is not
        // stored as an event of its own: the new holder's `acquired` says it (a third fewer rows
        // when locks change hands fast), and RecordingReader puts the `replaced` event back.
        using How = KeyspaceNote::End::How;
        const auto note = m_keyspace.constFind(view.resource);
        const KeyspaceNote::End noted =
            note != m_keyspace.cend() ? note->endFor(tracked.startMs, tracked.everHolders, tracked.deadlineMs)
                                      : KeyspaceNote::End();
        const qint64 wallNow = QDateTime::currentMSecsSinceEpoch();
        if (noted.how == How::Released || tracked.releasedAtMs >= 0) {
            RecordEvent end = resourceEvent(RecordEvent::Kind::Released, view.resource, tracked);
            end.holding = 0;
            end.holders = 0;
            end.timeMs = tracked.releasedAtMs >= 0 ? tracked.releasedAtMs : noted.wallMs;
            push(std::move(end));
        } else if (noted.how == How::Expired ||
                   (tracked.deadlineMs >= 0 && now + expiryToleranceMs >= tracked.deadlineMs)) {
            RecordEvent end = resourceEvent(RecordEvent::Kind::Expired, view.resource, tracked);
            // When its lease ended: the deadline its TTL set, or the server's word if that came
            // sooner (a clock running fast).
            const qint64 at = noted.how != How::Expired ? tracked.deadlineMs
                              : tracked.deadlineMs >= 0 ? qMin(tracked.deadlineMs, noted.atMs)
                                                        : noted.atMs;
            end.timeMs = wallNow - qMax<qint64>(0, now - at);
            push(std::move(end));
        }
        if (noted.how != How::Unknown)
            m_keyspace.erase(note);
        const bool wasContested = tracked.contested;
        startEpisode(view, view.token, true, unreachable, RecordEvent::Kind::Acquired, tracked);
        tracked.contested = wasContested;
    }
    if (contested)
        followSides(view, unreachable, tracked);
}

void Recorder::follow(const LockView& view, bool viewsToken, quint64 unreachable, Tracked& tracked)
{
    const quint64 holdersBefore = tracked.holders;
    const bool quorumBefore = tracked.holding >= view.needed;
    bool extended = false;
    observe(view, viewsToken, unreachable, tracked, &extended);
    if (extended) {
        RecordEvent e = resourceEvent(RecordEvent::Kind::Extended, view.resource, tracked);
        e.ttlMs = viewsToken ? view.validityAt(monotonicMs()) : -1;
        push(std::move(e));
    }
    if (tracked.holders != holdersBefore) {
        RecordEvent e = resourceEvent(RecordEvent::Kind::Holders, view.resource, tracked);
        e.detail = QStringLiteral("held on %1 of %2").arg(tracked.holding).arg(view.total);
        push(std::move(e));
        if (tracked.contested && !quorumBefore && tracked.holding >= view.needed)
            anchorValidityBeside(view.resource, tracked.token);
    }
    if (view.atRisk != tracked.atRisk) {
        tracked.atRisk = view.atRisk;
        RecordEvent e = resourceEvent(
            view.atRisk ? RecordEvent::Kind::AtRisk : RecordEvent::Kind::RiskCleared, view.resource, tracked);
        e.detail = view.atRiskReason();
        push(std::move(e));
    }
}

void Recorder::followSides(const LockView& view, quint64 unreachable, Tracked& tracked)
{
    // The tokens held now besides the tracked one, on the masters that answered.
    QList<QByteArray> held;
    for (const MasterObservation& o : view.observations)
        if (o.present() && !o.error().isError() && o.lock().token != tracked.token &&
            !held.contains(o.lock().token))
            held << o.lock().token;
    if (held.isEmpty() && !tracked.contested)
        return;
    QList<Tracked>& sides = m_sides[view.resource];
    const qint64 now = monotonicMs();
    for (qsizetype i = sides.size() - 1; i >= 0; --i)
        if (!held.contains(sides.at(i).token) && !(sides.at(i).holders & unreachable)) {
            // Gone from every master that held it (one not answering holds it still, as far as
            // anyone knows: ended there, it came back as a second episode of the same holder).
            endEpisode(view.resource, sides.at(i), now,
                       writtenOver(view, sides.at(i).token, sides.at(i).holders));
            sides.removeAt(i);
        }
    for (const QByteArray& token : std::as_const(held)) {
        const auto side =
            std::find_if(sides.begin(), sides.end(), [&token](const Tracked& t) { return t.token == token; });
        if (side != sides.end()) {
            follow(view, token == view.token, unreachable, *side);
            continue;
        }
        // Beside a holder that is still there: not a replacement, a second holder at once.
        sides.append(Tracked());
        startEpisode(view, token, token == view.token, unreachable, RecordEvent::Kind::Contested,
                     sides.last());
        sides.last().contested = true;
        if (sides.last().holding >= view.needed)
            anchorValidityBeside(view.resource, token);
    }
    tracked.contested = !sides.isEmpty();
    if (sides.isEmpty())
        m_sides.remove(view.resource);
}

void Recorder::markInterrupted(int master, bool restart)
{
    // Marked now, on the episodes seen on the master so far: a token first written there after the
    // restart lost nothing to it, and its holder's delete is a release (a restart during the
    // episode made such a release a loss, and a double grant with the next holder: issue #48).
    // A pass over the tracked locks, on a master's rare restart or outage.
    const auto mark = [master, restart](Tracked& t) {
        if (master >= t.masters.size())
            return;
        PerMaster& m = t.masters[master];
        if (m.pttl == -2 && (master >= 64 || !(t.everHolders & (quint64(1) << master))))
            return;
        if (restart)
            m.restartedUnder = 1;
        else
            m.downUnder = 1;
    };
    for (Tracked& t : m_tracked)
        mark(t);
    for (QList<Tracked>& sides : m_sides)
        for (Tracked& t : sides)
            mark(t);
}

bool Recorder::interrupted(int master, const Tracked& tracked) const
{
    // A restart (new run_id) loses what was not persisted; a master that was down a moment ago
    // may be one whose restart is not told yet (its scan can read it empty first).
    if (master >= tracked.masters.size())
        return false;
    const PerMaster& m = tracked.masters[master];
    return m.restartedUnder || (m.downUnder && monotonicMs() - m_downMs.value(master) < interruptionMemoryMs);
}

RecordEvent::Kind Recorder::endOf(const QByteArray& resource, const Tracked& tracked, qint64 nowMs,
                                  bool overwritten) const
{
    if (tracked.releasedAtMs >= 0)
        return RecordEvent::Kind::Released;
    if (const auto note = m_keyspace.constFind(resource); note != m_keyspace.cend()) {
        using How = KeyspaceNote::End::How;
        const How how = note->endFor(tracked.startMs, tracked.everHolders, tracked.deadlineMs).how;
        if (how == How::Expired)
            return RecordEvent::Kind::Expired;
        if (how == How::Released)
            return RecordEvent::Kind::Released;
    }
    if (tracked.lostOnFailover)
        return RecordEvent::Kind::Lost;
    for (int i = 0; i < m_masterCount && i < 64; ++i)
        if ((tracked.everHolders & (quint64(1) << i)) && interrupted(i, tracked))
            return RecordEvent::Kind::Lost;
    if (tracked.deadlineMs >= 0 && nowMs + expiryToleranceMs >= tracked.deadlineMs)
        return RecordEvent::Kind::Expired;
    return overwritten ? RecordEvent::Kind::Replaced : RecordEvent::Kind::Released;
}

void Recorder::endEpisode(const QByteArray& resource, const Tracked& tracked, qint64 now, bool overwritten)
{
    const RecordEvent::Kind kind = endOf(resource, tracked, now, overwritten);
    RecordEvent e = resourceEvent(kind, resource, tracked);
    e.holding = 0;
    e.holders = 0;
    if (kind == RecordEvent::Kind::Expired && tracked.deadlineMs >= 0 && tracked.deadlineMs < now)
        e.timeMs = QDateTime::currentMSecsSinceEpoch() - (now - tracked.deadlineMs);
    else if (kind == RecordEvent::Kind::Released && tracked.releasedAtMs >= 0)
        e.timeMs = tracked.releasedAtMs; // when the first master let go
    push(std::move(e));
}

void Recorder::onRemoved(const QByteArray& resource)
{
    const auto it = m_tracked.constFind(resource);
    if (it == m_tracked.cend())
        return;
    const qint64 now = monotonicMs();
    endEpisode(resource, it.value(), now);
    if (it->contested)
        for (const Tracked& side : m_sides.take(resource))
            endEpisode(resource, side, now);
    m_tracked.erase(it);
    m_keyspace.remove(resource);
}

void Recorder::onFailoverReport(const FailoverReport& report)
{
    for (const QByteArray& r : report.lost)
        if (const auto it = m_tracked.find(r); it != m_tracked.end())
            it->lostOnFailover = true;
    masterEvent(report.master, RecordEvent::Kind::FailoverReport,
                QStringLiteral("%1 at risk, %2 lost, %3 under another token")
                    .arg(report.atRisk.size())
                    .arg(report.lost.size())
                    .arg(report.changedToken.size()));
}

} // namespace lockscope
