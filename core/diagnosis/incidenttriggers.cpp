// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/incidenttriggers.h"

#include <QSet>

namespace lockscope {

QList<QByteArray> IncidentTriggers::suspects(const RecordEventList& events)
{
    using Kind = RecordEvent::Kind;
    QList<QByteArray> out;
    QSet<QByteArray> met;
    const auto suspect = [&](const QByteArray& resource) {
        if (!met.contains(resource)) {
            met.insert(resource);
            out << resource;
        }
    };
    for (const RecordEvent& e : events) {
        switch (e.kind) {
        case Kind::MasterRestarted:
        case Kind::Failover:
        case Kind::FailoverReport:
            m_topologyUntilMs = qMax(m_topologyUntilMs, e.timeMs + topologyWindowMs);
            break;
        case Kind::Contested:
        case Kind::TracedStale:  // a holder at work past its lease (the tracer saw it)
        case Kind::TracedDelete: // a lock deleted by a connection not its holder's
        case Kind::TracedAlive:  // a lapsed holder still connected when the lock changed hands
        case Kind::FenceCounter: // a fencing counter's new value (one below its highest: a regression)
            suspect(e.resource);
            break;
        case Kind::Expired:
        case Kind::Lost:
            m_endedUntil.insert(e.resource, e.timeMs + endWindowMs);
            break;
        case Kind::Seen:
        case Kind::Acquired:
            // A take soon after an expiry or loss, or after a restart or failover. (A token held
            // beside another starts with `contested`, not here.)
            if (e.timeMs <= m_topologyUntilMs) {
                suspect(e.resource);
            } else if (const auto it = m_endedUntil.constFind(e.resource); it != m_endedUntil.cend()) {
                if (e.timeMs <= it.value())
                    suspect(e.resource);
            }
            break;
        default:
            break;
        }
    }
    // By size (a burst of ends) or by time (once a window has passed, what it remembered is over).
    if (!events.isEmpty() && (m_endedUntil.size() >= m_forgetAtSize || events.last().timeMs >= m_forgetAtMs))
        forgetOld(events.last().timeMs);
    return out;
}

void IncidentTriggers::forgetOld(qint64 nowMs)
{
    m_endedUntil.removeIf(
        [nowMs](const QHash<QByteArray, qint64>::iterator& it) { return it.value() < nowMs; });
    m_forgetAtSize = qMax<qint64>(1024, m_endedUntil.size() * 2);
    m_forgetAtMs = nowMs + endWindowMs;
}

} // namespace lockscope
