// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "metrics/familyactivity.h"
#include "metrics/metricsinput.h"
#include "monitor/lockview.h"

#include <QHash>
#include <QHashFunctions>
#include <QList>
#include <QObject>

#include <functional>
#include <vector>

namespace lockscope {

class LockMonitor;
struct FailoverReport;

// What `lockctl serve` counts between scrapes, from the monitor's and the masters' signals: the
// counters of the metrics (acquisitions, expirations, releases, force releases, restarts,
// failovers) and, per lock, when it was first seen with its current token (its age).
//
// The monitor sees keys, not clients: an acquisition is a lock that appears (or changes token)
// after the first full discovery; a lock that disappears once its expiry has come expired, one
// that goes before released, and a stuck one (no expiry, so it never expires) was force-released.
// With keyspace notifications the server's word says how a lock went (a delete or an expiry) and
// when, rather than the clock. The same tenures, by family of locks, feed FamilyActivity (hold
// times, endings, headroom).
class LockActivity final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockActivity)

public:
    explicit LockActivity(LockMonitor* monitor, QObject* parent = nullptr);

    quint64 acquisitions() const { return m_acquisitions; }
    quint64 expirations() const { return m_expirations; }
    quint64 releases() const { return m_releases; }
    quint64 forceReleases() const { return m_forceReleases; }
    quint64 restarts(int master) const { return m_restarts.value(master); }
    quint64 failovers(int master) const { return m_failovers.value(master); }
    quint64 failoverLostLocks(int master) const { return m_failoverLost.value(master); }
    // The last full pass of `master`, from its first page to its end; -1 before one finished.
    double scanSeconds(int master) const { return m_scanSeconds.value(master, -1); }
    // Seconds since the lock was first seen with its current token; -1 for a lock not seen.
    double ageSeconds(const LockView& view, qint64 nowMs) const;
    bool isReady() const { return m_ready; }
    // The locks seen, oldest first, until `visit` returns false (MetricsInput::oldestFirst).
    void forEachOldest(const std::function<bool(const QByteArray&)>& visit) const;

    // Locks it keeps anything for (ages, places in the oldest-first order): back to 0 once every
    // lock is gone. For tests of memory.
    qsizetype trackedLocks() const { return m_seen.size() + qsizetype(m_oldest.size() - m_vacant); }

    // What a scrape renders now: the masters, the monitor's view and these counters.
    MetricsInput input(qint64 nowMs) const;

signals:
    // The first full discovery is done: the metrics now show every lock (ready).
    void ready();

private:
    struct Seen
    {
        // The current token's hash, not the token: 8 bytes instead of 24 per lock, and a token
        // change goes unnoticed only if both hash alike (one in 2^64).
        size_t tokenHash = 0;
        qint64 sinceMs = 0;      // monotonic
        quint64 order = 0;       // its place in m_oldest: m_oldest[order - m_oldestBase]
        qint64 expiresAtMs = -1; // monotonic; -1: no expiry
        LockStatus status = LockStatus::Unknown;
        int series = -1;        // its family's in m_families
        bool beganSeen = false; // its current token was seen taking it (not found at start)
    };
    // A delete or expiry the server told of (keyspace notifications): how a lock ended, and when.
    struct Ending
    {
        bool expired = false;
        qint64 atMs = 0; // monotonic
    };
    void onBatch(const LockBatch& batch);
    void onRemoved(const QByteArray& resource, qint64 nowMs);
    void onFailover(const FailoverReport& report);
    // Gives `resource` the next place in m_oldest, leaving its old place (if any) empty.
    void reorder(const QByteArray& resource, Seen& seen);
    void vacate(quint64 order);

    LockMonitor* m_monitor;
    QHash<QByteArray, Seen> m_seen;
    // First seen with the current token, oldest first; a lock that left or changed token leaves
    // an empty key behind, dropped once they are the many. A flat list: a map node per lock cost
    // three times as much with a million locks.
    std::vector<QByteArray> m_oldest;
    quint64 m_oldestBase = 1; // the order of m_oldest.front()
    size_t m_vacant = 0;      // empty places in m_oldest
    QList<quint64> m_restarts;
    QList<quint64> m_failovers;
    QList<quint64> m_failoverLost;
    QList<double> m_scanSeconds;
    QList<qint64> m_passStartMs; // per master; -1 between passes
    quint64 m_acquisitions = 0;
    quint64 m_expirations = 0;
    quint64 m_releases = 0;
    quint64 m_forceReleases = 0;
    FamilyActivity m_families;
    QHash<QByteArray, Ending> m_endings; // by key, until the monitor's batch says the lock went
    bool m_ready = false;
    size_t m_seed = QHashSeed::globalSeed();
};

} // namespace lockscope
