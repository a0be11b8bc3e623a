// SPDX-License-Identifier: Apache-2.0
#include "connection/replydeadline.h"

#include "base/monotonicclock.h"

#include <algorithm>
#include <limits>

namespace lockscope {

ReplyDeadline::ReplyDeadline(const PendingRequests& pending, const ConnectionOptions& options,
                             std::function<bool()> unreadBytes, std::function<void()> expired)
    : m_pending(pending), m_options(options), m_unreadBytes(std::move(unreadBytes)),
      m_expired(std::move(expired))
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    QObject::connect(&m_timer, &QTimer::timeout, [this] { onTimer(); });
}

void ReplyDeadline::heard()
{
    m_lastReadMs = monotonicMs();
}

qint64 ReplyDeadline::deadline() const
{
    const qint64 deadline = m_pending.nextDeadline();
    return deadline == PendingRequest::notSent ? deadline
                                               : qMax(deadline, m_lastReadMs + m_options.commandTimeoutMs);
}

void ReplyDeadline::arm()
{
    const qint64 due = deadline();
    if (due == PendingRequest::notSent) {
        m_timer.stop(); // nothing pending, or nothing flushed yet: the flush arms it
        return;
    }
    if (m_timer.isActive())
        return;
    m_timer.start(int(std::clamp<qint64>(due - monotonicMs(), 0, std::numeric_limits<int>::max())));
}

void ReplyDeadline::onTimer()
{
    const qint64 due = deadline();
    if (due == PendingRequest::notSent)
        return;
    if (due <= monotonicMs()) {
        // This thread may have been busy past the deadline while the answer waited in the socket:
        // what the server sent counts as heard now, and is read on the loop's next pass.
        if (!m_unreadBytes()) {
            m_expired();
            return;
        }
        heard();
    }
    arm();
}

} // namespace lockscope
