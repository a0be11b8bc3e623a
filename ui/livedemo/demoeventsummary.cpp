// SPDX-License-Identifier: Apache-2.0
#include "livedemo/demoeventsummary.h"

#include "base/bytesdisplay.h"
#include "demo/demosimulation.h"
#include "eventlog/eventlogmodel.h"
#include "session/keyspaceeventrecord.h"

#include <QStringList>

namespace lockscope {

DemoEventSummary::DemoEventSummary(EventLogModel* log, QObject* parent) : QObject(parent), m_log(log)
{
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &DemoEventSummary::flush);
    m_timer.start();
}

bool DemoEventSummary::take(const KeyspaceEventRecord& event)
{
    if (!DemoSimulation::isClientKey(event.key))
        return false;
    ++m_byEvent[event.event];
    ++m_total;
    return true;
}

void DemoEventSummary::flush()
{
    if (m_total == 0)
        return;
    // Most frequent first; the event names are the server's bytes, escaped like every other.
    QList<QPair<int, QByteArray>> order;
    for (auto it = m_byEvent.cbegin(); it != m_byEvent.cend(); ++it)
        order.append({it.value(), it.key()});
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    QStringList parts;
    for (const auto& [n, name] : std::as_const(order))
        parts << QStringLiteral("%1 %2").arg(escapeBytes(name)).arg(n);
    m_log->add(EventLogModel::Kind::Keyspace, sourceName(),
               (m_total == 1 ? tr("1 keyspace event in the last second (%2)")
                             : tr("%1 keyspace events in the last second (%2)"))
                   .arg(m_total)
                   .arg(parts.join(QStringLiteral(", "))));
    m_byEvent.clear();
    m_total = 0;
}

} // namespace lockscope
