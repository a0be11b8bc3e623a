// SPDX-License-Identifier: Apache-2.0
#include "connection/reconnectbackoff.h"

#include <QRandomGenerator>

#include <algorithm>
#include <limits>

namespace lockscope {

ReconnectBackoff::ReconnectBackoff(const ConnectionOptions& options, std::function<void()> retry)
    : m_options(options)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    QObject::connect(&m_timer, &QTimer::timeout, std::move(retry));
}

void ReconnectBackoff::schedule()
{
    const qint64 base = qMin<qint64>(m_options.reconnectMaxMs, qint64(qMax(0, m_options.reconnectInitialMs))
                                                                   << qMin(m_attempt, 20));
    const double jitter = 0.75 + 0.5 * QRandomGenerator::global()->generateDouble();
    m_delayMs = int(std::clamp<qint64>(qint64(double(base) * jitter), 1, std::numeric_limits<int>::max()));
    m_timer.start(m_delayMs);
    ++m_attempt;
}

void ReconnectBackoff::cancel()
{
    m_timer.stop();
    m_delayMs = -1;
}

} // namespace lockscope
