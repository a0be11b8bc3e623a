// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "connection/connectionoptions.h"
#include "connection/redisconnection.h"
#include "discovery/changedkeyqueue.h"
#include "discovery/keyspaceeventthrottle.h"
#include "discovery/keyspacesubscriber.h"
#include "discovery/notificationmode.h"
#include "discovery/observationbatch.h"
#include "discovery/readorder.h"
#include "discovery/scankeytable.h"
#include "discovery/scanpacer.h"
#include "discovery/scanplan.h"

#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace lockscope {

// One master's scanning, on a scan thread: SCAN passes (pipelined: the next page is asked for while
// the current one is read), keyspace events on a subscriber connection when the server publishes
// them, reads of the keys met, and periodic reconciliation, over connections of its own made with
// the master connection's options. Only keys matching the patterns are held. What it reads leaves in
// batches (signals, queued to the MasterScanner); it never touches the monitor.
//
// Every method runs on the worker's thread: the MasterScanner calls them queued. `generation` is the
// MasterScanner's count of master connection changes; state signals carry the one they belong to.
class ScanWorker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScanWorker)

public:
    // `keyPool`: where the key table takes new keys' bytes from, shared with the workers of masters
    // that hold the same keys (null: its own).
    ScanWorker(int index, MonitorSettings settings, std::shared_ptr<KeyPool> keyPool = {},
               QObject* parent = nullptr);
    ~ScanWorker() override;

    // The master connection is up with `master`, on the server process `runId`: scan over a
    // connection with these options, opened afresh when they changed (a retargeted master), and read
    // the mode and every key again.
    void follow(quint64 generation, const ConnectionOptions& master, const QByteArray& runId);
    // The master connection is still connecting with `master`: ours connects alongside it, so the
    // first pass can start the moment the master is up (nothing is sent before follow()).
    void prepare(const ConnectionOptions& master);
    // The master connection is down: the pass is aborted and the mode is unknown, for `reason`.
    void masterDown(quint64 generation, const QString& reason);
    // Starts a full pass now (or right after the running one).
    void requestPass();
    // Keyspace events carry when the server ran them at the soonest (KeyspaceSubscriber::anchor).
    void anchorEvents();
    // The MasterScanner has handed the finished pass's batches to the monitor: the next pass may
    // be scheduled.
    void passDelivered();
    // The MasterScanner has handed `keys` keys of the batches emitted to the monitor (every batch
    // is acknowledged so, once).
    void delivered(qint64 keys);
    // Reads notify-keyspace-events again (after it was changed).
    void detectMode();
    // Closes every connection, so that nothing runs once this returns; deletion follows.
    void shutdown();

    // For tests: the connection that SCANs and reads (null before the master first came up), and
    // the pacing of its passes.
    const RedisConnection* scanConnection() const { return m_connection.get(); }
    const ScanPacer& pacer() const { return m_pacer; }

signals:
    void modeChanged(quint64 generation, lockscope::NotificationMode mode, const QString& reason);
    void scanningChanged(quint64 generation, bool scanning);
    void scanProgress(qint64 scanned, qint64 total);
    void observed(const lockscope::ObservationBatchPtr& batch);
    // After the pass's last batch.
    void passFinished(qint64 knownKeys);
    // A burst of keyspace events, in arrival order (keys.at(i) had events.at(i), from a command the
    // server ran after ranAfterMs.at(i): KeyspaceSubscriber); `skipped`: how many more arrived that
    // the throttle held back (KeyspaceEventThrottle).
    void keyspaceEvents(const QByteArrayList& keys, const QByteArrayList& events,
                        const QList<qint64>& ranAfterMs, qint64 skipped);

private:
    void onConnectionState(RedisConnection::State state);
    void openConnection(const ConnectionOptions& master);
    // Up, following an up master, and on the process the master connection knows (see onMastersProcess).
    bool canScan() const;
    // Our connection reaches the process whose run_id the master connection last read. After a restart
    // ours may reconnect first: its reads would tell the new process's keys as the old one's before the
    // monitor has heard of the restart (which marks what the old one held at risk).
    bool onMastersProcess() const;
    void setMode(NotificationMode mode, const QString& reason);
    void setScanning(bool scanning);
    void abortPass();
    void startSubscriber();
    void stopSubscriber();
    void beginPass();
    void scanPage(const QByteArray& cursor);
    void sendScan(const QByteArray& cursor, int count);
    // The next page of the pass: asked now, or held back while the monitor has too many of our keys
    // still to take in.
    void continuePass(const QByteArray& cursor);
    // `after` runs once the keys' observations are out (while the pass they belong to still runs).
    // `after`: once the read is in, if its pass still runs; `done`: once it is in, whatever runs.
    void readKeys(const QByteArrayList& keys, bool fromPass, std::function<void()> after = {},
                  std::function<void()> done = {});
    // Event reads wait: enough are in flight, a pass waits for the monitor, or the monitor has
    // not taken in what was read.
    bool eventReadsHeld() const;
    // Changed keys wait and nothing holds their reads: the next flush soon.
    void resumeEventReads();
    // Paced: the page's keys from `offset` on, one batch at a time, then the next page after a pause.
    void readPage(const QByteArrayList& keys, qsizetype offset, const QByteArray& next);
    void nextPage(const QByteArray& next);
    void maybeFinishPass();
    // Why the running pass cannot go on after a page that returned `cursor`; empty while it can.
    QString scanBroken(const QByteArray& cursor) const;
    void failPass(const QString& reason);
    void onEvent(const QByteArray& key, const QByteArray& payload, qint64 ranAfterMs);
    void flushEvents();
    void schedulePass();

    int m_index;
    MonitorSettings m_settings;
    ScanPlan m_plan; // the patterns, as one SCAN run a pass
    quint64 m_generation = 0;
    bool m_masterUp = false;
    bool m_anchorEvents = false;
    ConnectionOptions m_options; // the master connection's, as last followed ...
    QByteArray m_masterRunId;    // ... and the server process it was connected to
    std::unique_ptr<RedisConnection> m_connection;
    std::unique_ptr<KeyspaceSubscriber> m_subscriber;
    NotificationMode m_mode = NotificationMode::Unknown;
    QString m_modeReason;
    quint64 m_modeGeneration = 0;     // the generation m_mode was last announced in
    quint64 m_scanningGeneration = 0; // likewise for m_scanning

    // Keys known or met by the running pass, in one table: a key costs one entry and one lookup
    // per step, not one in a "known" and one in a "seen" set. Unknown keys leave at the pass end.
    ScanKeyTable m_keys;
    qint64 m_knownCount = 0;
    bool m_scanning = false;
    bool m_passRequested = false;
    // A pass finished and its batches are still queued to the monitor's thread: the next one waits.
    // Without this a monitor slower than the scans (100k keys on 5 masters, every key observed each
    // pass, one thread to take them) fell behind pass after pass and its queue grew without bound.
    bool m_awaitingDelivery = false;
    bool m_scansDone = false;
    int m_readsInFlight = 0;
    quint32 m_pass = 0; // a key's mark keeps 31 bits of it: a pass every second wraps after 68 years
    qint64 m_dbSize = 0;
    bool m_dbSizeKnown = false; // DBSIZE answered in the running pass
    qint64 m_passPages = 0;     // SCAN pages of the running pass ...
    qint64 m_passKeysSeen = 0;  // ... and the keys they returned
    bool m_passCovers = true;   // its pages send the plan's covering MATCH (ScanPlan::coverPays)
    bool m_scanFailed = false;  // a pass was stopped as one that would never end
    // Keys emitted and not yet taken in by the monitor. A thread reading faster than the monitor
    // takes in (5 masters, one monitor thread) queued whole passes of reads, a few hundred bytes a
    // key: past a limit the pass waits, its next SCAN page held here until enough are delivered.
    qint64 m_undelivered = 0;
    struct HeldPage
    {
        quint32 pass = 0; // 0: none (passes count from 1)
        QByteArray cursor;
    };
    HeldPage m_heldPage;
    int m_passLeastCount = 0; // the smallest COUNT the running pass asked for

    ScanPacer m_pacer;
    bool m_firstPass = true;    // the connection has not finished a pass yet (`max` runs it unpaced)
    qint64 m_pageStartNs = 0;   // the running page's SCAN sent
    qint64 m_pauseDebtUs = 0;   // pauses below the timer's millisecond, added up until one is due
    QByteArray m_pendingCursor; // the page to ask for when m_pageTimer fires

    static constexpr qsizetype maxEventKeysPerRead = 4096;
    static constexpr int maxEventReadsInFlight = 2;
    ChangedKeyQueue m_eventKeys{m_keys}; // to read at the next flush
    int m_eventReadsInFlight = 0;
    quint64 m_connectionSerial = 0;   // which connection a read went out on
    QByteArrayList m_eventLogKeys;    // keys and events to report at the next flush ...
    QByteArrayList m_eventLogEvents;  // ... in arrival order
    QList<qint64> m_eventLogRanAfter; // ... with when each was run at the soonest
    KeyspaceEventThrottle m_eventLogThrottle;
    ReadOrder m_readOrder; // the reads out on the connection, for readings that come in late
    QTimer* m_eventTimer;
    QTimer* m_passTimer;
    QTimer* m_pageTimer;
};

} // namespace lockscope
