// SPDX-License-Identifier: Apache-2.0
#include "record/singleepisode.h"

namespace lockscope {

int SingleEpisode::masterCount() const
{
    int n = 0;
    while (n < maxMasters && masterAt(n) != noMaster)
        ++n;
    return n;
}

int SingleEpisode::newMasters(quint64 holders, quint8* out) const
{
    const int known = masterCount();
    int added = 0;
    for (int i = 0; i < 64 && holders != 0; ++i, holders >>= 1) {
        if (!(holders & 1))
            continue;
        bool seen = false;
        for (int k = 0; k < known && !seen; ++k)
            seen = masterAt(k) == i;
        if (!seen) {
            if (known + added == maxMasters)
                return -1;
            out[added++] = quint8(i);
        }
    }
    return added;
}

bool SingleEpisode::takes(const RecordEvent& event) const
{
    quint8 added[maxMasters];
    if (event.kind == RecordEvent::Kind::Seen && !isSet())
        return newMasters(event.holders, added) >= 0;
    return event.kind == RecordEvent::Kind::Holders && isSet() && event.token == m_token &&
           newMasters(event.holders, added) >= 0;
}

void SingleEpisode::add(const RecordEvent& event)
{
    Q_ASSERT(takes(event));
    if (!isSet()) {
        m_token = event.token;
        m_startMs = event.timeMs;
    }
    if (m_owner.isEmpty())
        m_owner = event.owner;
    m_maxHolding = qMax(m_maxHolding, event.holding);
    quint8 added[maxMasters];
    const int known = masterCount();
    const int n = newMasters(event.holders, added);
    for (int k = 0; k < n; ++k) {
        const int shift = 8 * (known + k);
        m_order = (m_order & ~(quint64(0xFF) << shift)) | (quint64(added[k]) << shift);
    }
}

Episode SingleEpisode::episode(const QStringList& masters) const
{
    Episode e;
    e.token = m_token;
    e.owner = m_owner;
    e.startMs = m_startMs;
    e.maxHolding = m_maxHolding;
    const int n = masterCount();
    bool inOrder = n == masters.size();
    for (int k = 0; k < n && inOrder; ++k)
        inOrder = masterAt(k) == k;
    if (inOrder) {
        e.masters = masters; // shared, as EpisodeBuilder does
        return e;
    }
    e.masters.reserve(n);
    for (int k = 0; k < n; ++k)
        if (masterAt(k) < masters.size())
            e.masters << masters.at(masterAt(k));
    return e;
}

void SingleEpisode::moveInto(EpisodeBuilder& builder, const QByteArray& resource,
                             const RecordingSession& session)
{
    if (!isSet())
        return;
    // One event per master, in the order they were first seen: the builder lists them so.
    HistoryEvent h;
    h.session = session.id;
    h.event.kind = RecordEvent::Kind::Seen;
    h.event.resource = resource;
    h.event.timeMs = m_startMs;
    h.event.token = m_token;
    h.event.owner = m_owner;
    h.event.holding = m_maxHolding;
    const int n = masterCount();
    h.event.holders = n > 0 ? quint64(1) << masterAt(0) : 0;
    builder.add(h, session);
    h.event.kind = RecordEvent::Kind::Holders;
    h.event.owner.clear();
    h.event.holding = 0;
    for (int k = 1; k < n; ++k) {
        h.event.holders = quint64(1) << masterAt(k);
        builder.add(h, session);
    }
    *this = SingleEpisode();
}

} // namespace lockscope
