// SPDX-License-Identifier: Apache-2.0
#include "monitor/legacyexpirywatch.h"

#include "base/monotonicclock.h"

namespace lockscope {

namespace {
// A QTimer takes an int: a timestamp further away is looked at again after a day.
constexpr qint64 longestWaitMs = 24 * 3600 * 1000;
} // namespace

LegacyExpiryWatch::LegacyExpiryWatch(std::function<void(const QByteArray& key)> onDue)
    : m_onDue(std::move(onDue))
{
    m_timer.setSingleShot(true);
    QObject::connect(&m_timer, &QTimer::timeout, [this] { onTimer(); });
}

void LegacyExpiryWatch::watch(const QByteArray& key, qint64 leftMs, qint64 now)
{
    if (leftMs < 0) {
        m_due.remove(key);
        return;
    }
    m_due.insert(key, now + leftMs + 1);
    if (!m_timer.isActive() || m_timer.remainingTime() > leftMs + 1)
        m_timer.start(int(qMin<qint64>(leftMs + 1, longestWaitMs)));
}

void LegacyExpiryWatch::onTimer()
{
    const qint64 now = monotonicMs();
    qint64 next = -1;
    for (auto it = m_due.begin(); it != m_due.end();) {
        if (it.value() > now) {
            next = next < 0 ? it.value() : qMin(next, it.value());
            ++it;
            continue;
        }
        m_onDue(it.key());
        it = m_due.erase(it);
    }
    if (next >= 0)
        m_timer.start(int(qMin<qint64>(next - now, longestWaitMs)));
}

} // namespace lockscope
