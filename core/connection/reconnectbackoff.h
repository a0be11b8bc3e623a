// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"

#include <QTimer>

#include <functional>

namespace lockscope {

// When RedisConnection tries a lost connection again: capped, jittered exponential back-off
// (reconnectInitialMs doubled per failed attempt up to reconnectMaxMs, times 0.75 to 1.25, so that
// clients that lost a server together do not come back together), on a timer of its own.
class ReconnectBackoff final
{
    Q_DISABLE_COPY_MOVE(ReconnectBackoff)

public:
    // `options` are the connection's (they may change: a retarget); `retry` starts the next attempt.
    ReconnectBackoff(const ConnectionOptions& options, std::function<void()> retry);

    // The next attempt after the delay this failure earns.
    void schedule();
    // No attempt pending (one started, or the connection stopped).
    void cancel();
    // A connection came up, or one is opened afresh: the next failure waits the initial delay.
    void reset() { m_attempt = 0; }
    // The delay of the scheduled attempt, jitter included; -1 when none is.
    int delayMs() const { return m_delayMs; }

private:
    const ConnectionOptions& m_options;
    int m_attempt = 0;
    int m_delayMs = -1;
    QTimer m_timer;
};

} // namespace lockscope
