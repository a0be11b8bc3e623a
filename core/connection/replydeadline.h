// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"
#include "connection/pendingrequests.h"

#include <QTimer>

#include <functional>

namespace lockscope {

// RedisConnection's rule that nothing waits forever: a command left unanswered for commandTimeoutMs
// fails the connection. A server still sending (the replies before ours, a subscriber's messages)
// is busy, not gone: the time counts from the last bytes it sent. One timer, armed for the earliest
// deadline of the connection's requests.
class ReplyDeadline final
{
    Q_DISABLE_COPY_MOVE(ReplyDeadline)

public:
    // `pending` and `options` are the connection's (options may change: a retarget). `unreadBytes`:
    // whether the transport holds bytes not read yet; `expired`: a deadline passed in silence.
    ReplyDeadline(const PendingRequests& pending, const ConnectionOptions& options,
                  std::function<bool()> unreadBytes, std::function<void()> expired);

    // Bytes came from the server.
    void heard();
    // A new connection: what the previous one heard says nothing of this one.
    void forget() { m_lastReadMs = 0; }
    // Starts the timer for the earliest deadline unless it runs (it re-arms itself when it fires);
    // stops it when no request has a deadline (none pending, or none flushed yet).
    void arm();
    void stop() { m_timer.stop(); }
    bool isActive() const { return m_timer.isActive(); }

private:
    // When the next timeout falls due (PendingRequest::notSent: none pending).
    qint64 deadline() const;
    void onTimer();

    const PendingRequests& m_pending;
    const ConnectionOptions& m_options;
    std::function<bool()> m_unreadBytes;
    std::function<void()> m_expired;
    qint64 m_lastReadMs = 0; // monotonic: when bytes last came from the server
    QTimer m_timer;
};

} // namespace lockscope
