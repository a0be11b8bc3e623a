// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/scanrate.h"

#include <QtGlobal>

#include <array>

namespace lockscope {

// The pacing policy of a SCAN pass, kept apart from any connection or clock so that every page loop
// (ScanWorker, a streaming lister) paces alike and it can be tested with made-up latencies.
//
// A paced page loop, one page at a time (nothing of ours waits in the server while others do):
//   1. send PING and SCAN cursor COUNT count() together; the PING's round trip goes to probed():
//      it is what a trivial command of any client waits right now;
//   2. read the page's keys in pipelines of at most readBatch() keys, each sent when the previous
//      one is answered (the server serves other clients between two of them);
//   3. pageDone(keys, elapsedUs) from the SCAN sent to the last read answered; wait pauseUs();
//      go on with count().
// Unpaced (paced() false: `max` on a first pass) the loop runs as fast as it can: COUNT is the
// configured one, reads are not split, no PING and no pause.
//
// Auto: the idle latency is the lowest low reading of the PINGs lately (the round trip that a quarter
// of the last 16 came within); while the PINGs come back near it the rate climbs towards
// ceilingKeysPerSecond, when they take clearly longer (the server or the machine is busy, with us or with
// others) the rate is cut, COUNT and the read batches shrink, and the pauses grow, down to
// floorKeysPerSecond; a busy page slower than even that rate is followed by a pause as long as itself (a pass
// takes at most twice its full-speed time). A Limit caps the rate (and the floor) at its keys a second. Times
// are in microseconds.
//
// Other clients: a PING's round trip hardly grows on a server that serves many fast commands (it
// waits behind a few of them), yet every long turn of ours is a wait for each of them. So a paced
// loop also counts the commands the server ran for others: every commandCountIntervalUs (in a pass's
// first such interval every youngCountIntervalUs) it sends INFO stats with a page and hands
// total_commands_processed to commandsCounted() with the replies its connection had read when that
// reply came (ours, INFO included). While others run more than sharedCommandsPerSecond, the server is shared:
// pages and read batches are at most sharedCount keys (short turns), the rate is cut as on a busy page, and
// no PING is sent (its round trip would not tell). A server that refuses INFO (an ACL without it) is judged
// by the PINGs alone for the pass.
class ScanPacer
{
public:
    struct Bounds
    {
        qint64 floorKeysPerSecond = 80000;    // 1M keys in 12.5 s even when backed off
        qint64 ceilingKeysPerSecond = 250000; // on an idle server
        qint64 startKeysPerSecond = 120000;
        int minCount = 50;
        int maxReadBatch = 128; // keys (two commands each): one short turn of the server
        int minReadBatch = 16;
        qint64 pageIntervalUs = 5000; // COUNT is about the rate times this
        qint64 maxPauseUs = 200000;
        qint64 commandCountIntervalUs = 100000;
        // A pass begins judged as the last one ended: a server that became shared meanwhile would
        // take a whole interval of full pages (over 10,000 keys on a fast machine) before the pass
        // backs off. So in its first interval a pass counts this often (a count read in a moment
        // when others paused is soon corrected).
        qint64 youngCountIntervalUs = 10000;
        qint64 sharedCommandsPerSecond = 1000; // others' commands a second that make a server shared
        int sharedCount = 16;                  // keys a page and a read batch at most, while shared
    };

    // `maxCount`: the configured SCAN COUNT (scanCount), the largest page asked for.
    explicit ScanPacer(ScanRate rate, int maxCount = 1000);
    ScanPacer(ScanRate rate, int maxCount, Bounds bounds);

    // A pass begins; `first`: the connection's first (only a first pass runs at `max`).
    void beginPass(bool first);
    bool paced() const { return m_paced; }

    int count() const;                           // COUNT for the next SCAN
    int readBatch() const;                       // keys read in one pipeline at most (paced only)
    qint64 pauseUs() const { return m_pauseUs; } // before the next page

    // Whether to send a PING before the next page (paced, and the server not shared).
    bool wantsProbe() const { return m_paced && !m_shared; }
    // A PING's round trip, sent with a page.
    void probed(qint64 rttUs);

    // Whether to count the server's commands with the next page (INFO stats), at `nowUs`; then
    // commandCountSent(nowUs), and commandsCounted() with its reply or commandCountRefused().
    bool wantsCommandCount(qint64 nowUs) const;
    // Returns the pass it was sent in: a reading that comes back in a later pass (another server's,
    // for a lister) is ignored.
    quint32 commandCountSent(qint64 nowUs);
    // `serverTotal`: INFO's total_commands_processed; `ourReplies`: the replies the connection had read
    // when INFO's came, INFO's own included (the commands of ours the server ran by then).
    void commandsCounted(quint32 pass, qint64 serverTotal, qint64 ourReplies, qint64 nowUs);
    void commandCountRefused() { m_countRefused = true, m_shared = false; }
    bool shared() const { return m_shared; }
    // A page is done: `keys` keys returned and read, `elapsedUs` from its SCAN sent to its last read
    // answered. Sets the pause before the next page.
    void pageDone(int keys, qint64 elapsedUs);

    // For tests and diagnostics.
    qint64 keysPerSecond() const { return m_rate; }
    qint64 idleUs() const { return qint64(m_idleUs); }
    double latencyRatio() const;

private:
    qint64 ceiling() const;
    qint64 floor() const;

    // The probes that make a low reading: a quarter of the last probeWindow must be that low. On
    // a virtual machine a loopback round trip is mostly the wake-up of two vCPUs (here: 15 us when
    // both happen to be awake, 130 us typically, on an idle server); the single lowest was an idle
    // estimate no later probe came near, and an idle server read as eight times busier than idle.
    static constexpr int probeWindow = 16;
    static constexpr int probeWindowLow = probeWindow / 4;

    ScanRate m_setting;
    int m_maxCount;
    Bounds m_bounds;
    bool m_paced = true;
    qint64 m_rate;                              // keys a second aimed at
    std::array<qint64, probeWindow> m_probes{}; // the latest round trips, a ring
    int m_probesHeld = 0;                       // in the ring, up to probeWindow
    int m_nextProbe = 0;                        // the ring's slot for the next one
    double m_idleUs = 0;                        // the idle latency estimate (0: none yet)
    double m_recentUs = 0;                      // smoothed PING round trip
    qint64 m_pauseUs = 0;
    // The last reading of the server's commands (serverTotal < 0: none this pass).
    struct CommandCount
    {
        qint64 serverTotal = -1;
        qint64 ourReplies = 0;
        qint64 atUs = 0;
    };
    CommandCount m_lastCount;
    qint64 m_countSentUs = -1;      // when INFO was last sent (-1: not this pass)
    qint64 m_firstCountSentUs = -1; // when INFO was first sent this pass
    bool m_countRefused = false;
    bool m_shared = false;
    quint32 m_passSerial = 0;
};

} // namespace lockscope
