// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

namespace lockscope {

// Which keyspace events a master's scanner passes on to its listeners (the window's event log, the
// recorder): every event that ends a key (an expiry, a delete), which is what the recorder needs
// to tell how a lock ended, and of the others at most `perWindow` per `windowMs`, counted when
// held back. The key is read again either way: this only bounds what is reported.
//
// A writer changing 200k TTLs a second named each key twice more (a list for the log, a signal per
// event on the monitor's thread), and the bursts queued for that thread held 100 MB of key copies
// while it was busy; the window's log shows at most 200 events per 250 ms of all masters anyway.
class KeyspaceEventThrottle final
{
public:
    static constexpr int perWindow = 256;
    static constexpr qint64 windowMs = 250;

    // Whether an event named `event`, arriving at `nowMs` (monotonic), is passed on.
    bool pass(const QByteArray& event, qint64 nowMs);
    // Events held back since the last call.
    qint64 takeSkipped();

private:
    qint64 m_windowStartMs = -1;
    int m_passedInWindow = 0;
    qint64 m_skipped = 0;
};

} // namespace lockscope
