// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "config/patternscope.h"
#include "connection/redisconnection.h"
#include "discovery/notificationmode.h"
#include "discovery/scanpacer.h"
#include "discovery/scanplan.h"
#include "formats/keyobservation.h"
#include "monitor/lockview.h"

#include <QObject>

class QTimer;

#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace lockscope {

class MasterSet;

// One listing of every lock, page by page, for `lockctl list`: the views leave as SCAN pages are
// read, so memory follows the page size, not the lock count (a master may hold a million locks).
//
// It lives in the monitor layer because a row is a quorum view (QuorumCalculator) of every
// master's read; it is not the LockMonitor (no per-resource state, no events, no second pass).
// The masters are scanned one after the other, each over a scan connection of its own (a master
// whose scan cannot run is held down with the reason, as the monitor's scan does). The keys of a
// page of master i are read on every master in one pipelined round each (KeyReader), and a key is
// reported by the first master that holds it: on master i a key that master j < i was read holding
// in the same round is skipped (j's scan met it, and its row went out then). Every pattern is
// covered by one SCAN run a master (ScanPlan). A key present for the whole listing thus comes out
// exactly once, with no set of the keys already seen.
class LockLister final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LockLister)

public:
    // One page's views, sorted by resource; the sink may move them away.
    using PageSink = std::function<void(QList<LockView>& views)>;

    LockLister(MasterSet* masters, LockScopeConfig config, PageSink sink, QObject* parent = nullptr);
    ~LockLister() override;

    // Cluster entries are read through the LockMonitor's cluster scanner (a key's slot decides the
    // node); the lister takes masters and Sentinel entries.
    static bool canList(const MasterSet& masters);

    void start();
    // While held, no further SCAN page is asked for (the pages already asked for still arrive).
    void setHeld(bool held);
    bool isFinished() const { return m_finished; }
    // The keyspace-event mode each master's CONFIG GET showed (as the monitor's scanner would).
    NotificationMode mode(int master) const { return m_modes.value(master, NotificationMode::Unknown); }
    qint64 keysScanned() const { return m_keysScanned; }

signals:
    void finished();

private:
    struct Page
    {
        int master = 0;        // whose scan met the keys
        qint64 scanSentUs = 0; // monotonic, when its SCAN went out
        QByteArrayList keys;
        std::vector<QList<KeyObservation>> reads; // per master; empty while its read is out
        int readsOut = 0;
    };
    // The pacing hook, the one place a scan's pace is decided (--scan-rate's pacer goes here): the
    // COUNT of the next SCAN page, the pause before it is asked for, and how many pages may be read
    // at once; pageRead() tells it how long a page took, from its SCAN to its last read.
    struct ScanStep
    {
        int count = 1000;
        int pauseMs = 0;
        size_t pagesAhead = 4;
        int readBatch = 0; // keys read in one pipeline at most; 0: the whole page
    };
    ScanStep nextStep();
    void pageRead(int keys, qint64 elapsedUs);

    void onScanConnectionState(int master);
    void beginScanning();
    void scanNext();
    void sendScan();
    // `covered`: the page was sent with the plan's covering MATCH, for `count` keys.
    void onScanReply(const RedisResult& r, bool covered, int count);
    // The scan of the current master cannot go on: it is held down with `reason`, the next one starts.
    void failMaster(const QString& reason);
    void nextMaster();
    void readPage(QByteArrayList keys);
    void readBatch(const std::shared_ptr<Page>& page, int master, qsizetype offset);
    void deliverReadyPages();
    void emitPage(Page& page);
    bool readable(int master) const;
    void maybeFinish();

    MasterSet* m_masters;
    LockScopeConfig m_config;
    PatternScope m_scope;
    ScanPlan m_plan;
    PageSink m_sink;
    std::vector<std::unique_ptr<RedisConnection>> m_scanConnections; // per master; null when it is down
    QList<NotificationMode> m_modes;
    QList<bool> m_settled;
    bool m_started = false;

    int m_master = -1; // the master being scanned
    QByteArray m_cursor = "0";
    bool m_scanOut = false; // a SCAN is waiting for its answer
    bool m_paused = false;  // the pause before the next page is over
    qint64 m_scanSentUs = 0;
    size_t m_pagesAhead = 4;
    int m_readBatch = 0;
    int m_leastCount = 0; // the least COUNT asked of the current master (the endless-scan bound)
    ScanPacer m_pacer;
    qint64 m_pauseDebtUs = 0;
    qint64 m_pageReadUs = 0; // when the last page was read (paced)
    int m_scanCount = 0;     // COUNT of the page being asked for
    bool m_masterDone = true;
    bool m_held = false;
    bool m_finished = false;
    qint64 m_dbSize = -1;
    qint64 m_masterPages = 0;
    qint64 m_masterKeys = 0;
    bool m_masterCovers = true; // its pages send the plan's covering MATCH (ScanPlan::coverPays)
    qint64 m_keysScanned = 0;
    std::deque<std::shared_ptr<Page>> m_pages; // read or being read, in scan order
    QTimer* m_pauseTimer;
};

} // namespace lockscope
