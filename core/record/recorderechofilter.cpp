// SPDX-License-Identifier: Apache-2.0
#include "record/recorderechofilter.h"

namespace lockscope {

bool RecorderEchoFilter::joinedLate(const HistoryEvent& h, qint64 group)
{
    const RecordEvent& e = h.event;
    using Kind = RecordEvent::Kind;
    if (e.kind == Kind::MasterUp || e.kind == Kind::MasterDown) {
        // The watch sees a master up while any of its recorders does: one recorder's connection
        // coming or going while another's stays up is not news of the master.
        // A recorder whose up or down is not among the events read (a history reads the masters'
        // events from the lock's first one on) counts as up while it watched.
        const QString master = m_groups->masterName(h.session, e.master);
        QHash<qint64, bool>& state = m_up[qMakePair(group, master)];
        bool othersUp = false;
        for (const qint64 other : m_groups->membersOf(group))
            if (other != h.session && m_groups->startedMsOf(other) <= e.timeMs &&
                m_groups->lastMsOf(other) >= e.timeMs && state.value(other, true))
                othersUp = true;
        state.insert(h.session, e.kind == Kind::MasterUp);
        return othersUp;
    }
    if (e.kind != Kind::Seen && e.kind != Kind::Acquired && e.kind != Kind::Contested)
        return false;
    // A recorder that starts while a lock is held says it was held when it began (`seen`): the watch
    // saw that holder already.
    const size_t resource = qHash(e.resource, size_t(group));
    const size_t token = qHash(e.token);
    const auto known = m_holder.constFind(resource);
    const bool already = e.kind == Kind::Seen && known != m_holder.cend() && *known == token;
    m_holder.insert(resource, token);
    return already;
}

bool RecorderEchoFilter::isEcho(const HistoryEvent& h)
{
    const RecordEvent& e = h.event;
    const qint64 group = m_groups->groupOf(h.session);
    if (joinedLate(h, group))
        return true;
    m_latestMs = qMax(m_latestMs, e.timeMs);
    if (++m_sinceSweep >= 65536)
        sweep();
    Key key{e.resource, int(e.kind), e.token, m_groups->masterName(h.session, e.master), e.auditId};
    QList<Seen>& seen = m_unmatched[key];
    // The oldest one within the window, of another session of the same watch, that this session
    // has not told again yet (a third recorder's telling is an echo too).
    for (Seen& s : seen) {
        if (s.session != h.session && !s.echoedBy.contains(h.session) &&
            m_groups->groupOf(s.session) == group && qAbs(s.timeMs - e.timeMs) <= echoWindowMs) {
            s.echoedBy << h.session;
            return true;
        }
    }
    seen.removeIf([&](const Seen& s) { return s.timeMs < e.timeMs - echoWindowMs; });
    seen << Seen{e.timeMs, h.session, {}};
    return false;
}

void RecorderEchoFilter::sweep()
{
    m_sinceSweep = 0;
    const qint64 before = m_latestMs - 2 * echoWindowMs;
    m_unmatched.removeIf([before](const auto& it) {
        const QList<Seen>& seen = it.value();
        return std::all_of(seen.cbegin(), seen.cend(), [before](const Seen& s) { return s.timeMs < before; });
    });
}

} // namespace lockscope
