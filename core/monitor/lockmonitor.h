// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/writegate.h"
#include "config/lockscopeconfig.h"
#include "config/patternscope.h"
#include "discovery/notificationmode.h"
#include "discovery/observationsink.h"
#include "monitor/failoverbook.h"
#include "monitor/failoverreport.h"
#include "monitor/fencecounters.h"
#include "monitor/legacyexpirywatch.h"
#include "monitor/locktable.h"
#include "topology/masterset.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <functional>

namespace lockscope {

class ClusterScanner;
class EntryScanner;

// The live picture of every lock on every master, per resource, with its quorum status.
// Changes leave as LockBatch (added / changed / removed) within a few milliseconds. Each resource
// has a small budget (a burst of 3, refilled once per coalesceMs), so a lock that changes hands
// hundreds of times a second reaches the view a few times a second, and an ordinary change at once.
class LockMonitor final : public QObject, public ObservationSink
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockMonitor)

public:
    LockMonitor(MasterSet* masters, LockScopeConfig config, QObject* parent = nullptr);
    ~LockMonitor() override;

    void start();
    // A full pass on every master now.
    void refresh();
    // The opt-in CONFIG SET notify-keyspace-events: a write to a master, so it goes through the
    // write gate (refused in read-only mode or when it cannot be recorded, then audited).
    void enableNotifications(int master, std::function<void(const RedisError&)> done);
    // Read-only from the configuration and no audit log, unless set.
    void setWriteGate(const WriteGate& gate) { m_gate = gate; }

    // The views shown, by resource.
    const LockTable& locks() const { return m_table; }
    MasterSet* masters() const { return m_masters; }
    EntryScanner* scanner(int master) const { return m_scanners.at(master); }
    const LockScopeConfig& config() const { return m_config; }
    // Every master that is up has finished at least one full pass.
    bool isInitialScanDone() const;
    // The first complete picture has gone out (initialScanFinished): a lock that appears from now
    // on was taken while watched. Not so for one in that picture's last flush (it may have waited
    // for the last master's pass), though the scan is done by then.
    bool hasShownFirstPicture() const { return m_firstPictureOut; }

    void setCoalesceMs(int ms) { m_coalesceMs = ms; }

    // Resources the monitor keeps anything for (read, shown, at risk, watched or waiting to be
    // flushed): back to 0 once every lock is gone and the removals went out. For tests of memory.
    qsizetype trackedResources() const
    {
        return m_table.entries().size() + m_risks.size() + m_legacyExpiries.size() +
               (m_dirty.size() - m_dirtyHead);
    }

    // Resources read on some master so far (shown, or waiting for the other masters' first pass).
    qsizetype knownResources() const { return m_table.entries().size(); }

    // What a master's last full pass saw: its keys (DBSIZE, which every pass asks anyway; -1 until
    // known), how many of them the patterns matched, and how many of those are locks. "1,204 keys,
    // none matched" tells a user the patterns miss; "12 matched, none is a lock" that they do not.
    struct ScanSummary
    {
        qint64 keys = -1;
        qint64 matched = 0;
        qint64 locks = 0;
        int passes = 0; // completed full passes
    };
    ScanSummary scanSummary(int master) const;

    void keyObserved(int master, const HashedKey& key, KeyObservation&& observation) override;
    void keyRemoved(int master, const HashedKey& key) override;

signals:
    void locksChanged(const lockscope::LockBatch& batch);
    void masterModeChanged(int master, lockscope::NotificationMode mode, const QString& reason);
    void scanProgress(int master, qint64 scanned, qint64 total);
    void passFinished(int master);
    void initialScanFinished();
    // `ranAfterMs`: the server ran the command after this (wall clock; -1: not known).
    void keyspaceEvent(int master, const QByteArray& key, const QByteArray& event, qint64 ranAfterMs);
    // A fencing counter read a new value on `master` (FenceCounters): `resource` is the lock it
    // fences (Redisson's fenced lock) or the counter itself.
    void fenceCounterRead(int master, const QByteArray& resource, const QByteArray& counter, qint64 value);
    // Keyspace events a master's scanner did not report one by one: under a flood of TTL changes,
    // all but a few per 250 ms (every expiry and delete is reported).
    void keyspaceEventsSkipped(int master, qint64 count);
    // A Sentinel entry's primary changed: every lock read from the old primary is now at risk.
    void failoverDetected(int master, const lockscope::PrimaryChange& change, int locksAtRisk);
    // The new primary has been read through (its first full pass): which of those locks it lost
    // or holds under another token. Once per failover (a second one before that is merged).
    void failoverReported(const lockscope::FailoverReport& report);
    // Notifications were enabled, but the audit line could not be written.
    void auditLost(const lockscope::RedisError& error, const QString& action, const QByteArray& resource);

private:
    struct Risk
    {
        QByteArray token;
        QString reason;
        // A restart's risk: the master that restarted and when that was seen (monotonic). Once
        // that master is read holding the same token again, what it may have lost is back.
        int restartedMaster = -1;
        qint64 sinceMs = 0;
    };

    // Once every master that is up has finished a pass: the first complete picture, then the signal.
    void maybeAnnounceInitialScan();
    void markDirty(LockEntry& entry, const HashedKey& key);
    // The initial scan is under way and a master that is up has neither read this key nor finished a pass.
    bool awaitsFirstPass(const LockEntry& entry) const;
    void markDeferredDirty();
    void markAllDirty();
    void scheduleFlushSoon();
    // Returns how many resources it handled (at most maxPerFlush).
    int flush();
    // `down`: per master, the error to show for it when it is not up (empty when all are);
    // `partial`: the cluster entries that are up with a primary down or a slot unserved.
    LockView computeView(const HashedKey& key, const LockEntry& entry, const QList<RedisError>& down,
                         const QList<int>& partial, qint64 now);
    QList<RedisError> downMasters() const;
    // A legacy lock's timestamp passes without any change to the key: its view is computed again
    // then, so that it turns stuck on time even in live mode (where nothing reads it again).
    void watchLegacyExpiry(const QByteArray& key, const LockEntry& entry, qint64 now);
    // Up, but its scan cannot run (the scan connection failed: a server at maxclients, a timeout
    // the health ping has not met yet): its part of the view is unknown, not empty.
    bool cannotScan(int master) const { return m_scanFailures.value(master).isError(); }
    void onScannerMode(int master, NotificationMode mode, const QString& reason);
    QList<int> partialMasters() const;
    // `node`: a cluster's primary that restarted (only the keys read from it); invalid for the
    // entry's own connection.
    void onMasterRestarted(int master, const NodeAddress& node = {});

    // Sentinel failovers (phase 2a of #8).
    void connectFailovers();
    void onPrimaryChanged(int master, const PrimaryChange& change);
    void finishFailover(int master);
    // The one place the failover code reads an entry's observations: whether `master` holds the
    // key and, if so, its token and expiry.
    static bool heldOn(const LockEntry& entry, int master, FailoverBook::Held* held);

    MasterSet* m_masters;
    LockScopeConfig m_config;
    PatternScope m_scope; // which keys met are locks (the patterns' modes)
    FenceCounters m_fences{&m_scope};
    QList<EntryScanner*> m_scanners;
    QList<ClusterScanner*> m_clusterScanners; // per master; null unless a cluster
    LockTable m_table;                        // every resource read, and the views shown
    QHash<QByteArray, Risk> m_risks;
    // Keys whose view may have changed, oldest first, each once (LockEntry::dirty); those before
    // m_dirtyHead are done. A list, not a set: a first pass marks 100k keys and erases them all.
    QList<HashedKey> m_dirty;
    qsizetype m_dirtyHead = 0;
    QTimer m_flushTimer;
    LegacyExpiryWatch m_legacyExpiries;
    bool m_flushSoon = false; // m_flushTimer fires within the current step (2 ms, or initialStepMs)
    int m_coalesceMs = 250;
    bool m_announcedInitial = false;
    bool m_firstPictureOut = false;
    FailoverBook m_failovers;
    QList<RedisError> m_scanFailures; // per master; set while it is up and cannot be scanned
    QList<ScanSummary> m_summaries;   // per master
    WriteGate m_gate;
};

} // namespace lockscope
