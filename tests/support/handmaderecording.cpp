// SPDX-License-Identifier: Apache-2.0
#include "support/handmaderecording.h"

#include <algorithm>

namespace lockscope::test {

HandMadeRecording::HandMadeRecording()
{
    m_session.id = 1;
    m_session.startedMs = t0;
    m_session.masters = {QStringLiteral("redis://127.0.0.1:7000"), QStringLiteral("redis://127.0.0.1:7001"),
                         QStringLiteral("redis://127.0.0.1:7002")};
}

void HandMadeRecording::add(qint64 ms, RecordEvent::Kind kind, const QByteArray& resource,
                            const QByteArray& token, qint64 ttlMs, int master)
{
    using Kind = RecordEvent::Kind;
    HistoryEvent h;
    h.session = m_session.id;
    h.resourceId = m_ids.value(resource, m_ids.size());
    m_ids.insert(resource, h.resourceId);
    h.event.timeMs = t0 + ms;
    h.event.kind = kind;
    h.event.resource = resource;
    h.event.token = token;
    h.event.ttlMs = ttlMs;
    h.event.master = master;
    h.event.holding = kind == Kind::Released || kind == Kind::Expired ? 0 : 1;
    h.event.holders = h.event.holding ? 1 : 0;
    m_events << h;
}

void HandMadeRecording::tenure(const QByteArray& resource, const QByteArray& token, qint64 atMs,
                               qint64 holdMs, qint64 leaseMs, RecordEvent::Kind end)
{
    add(atMs, RecordEvent::Kind::Acquired, resource, token, leaseMs);
    add(atMs + holdMs, end, resource, token);
}

QList<FamilyFigures> HandMadeRecording::figures(qint64 sinceMs, LockStatsBuilder::Detail detail)
{
    std::stable_sort(m_events.begin(), m_events.end(), [](const HistoryEvent& a, const HistoryEvent& b) {
        return a.event.timeMs < b.event.timeMs;
    });
    m_session.lastMs = m_events.isEmpty() ? t0 : m_events.last().event.timeMs;
    LockStatsBuilder builder({m_session}, sinceMs < 0 ? -1 : t0 + sinceMs, detail);
    for (const HistoryEvent& h : std::as_const(m_events))
        builder.add(h);
    return builder.finish();
}

std::optional<FamilyFigures> familyIn(const QList<FamilyFigures>& all, const QByteArray& family)
{
    const auto it =
        std::find_if(all.cbegin(), all.cend(), [&](const FamilyFigures& f) { return f.family == family; });
    return it == all.cend() ? std::nullopt : std::optional<FamilyFigures>(*it);
}

} // namespace lockscope::test
