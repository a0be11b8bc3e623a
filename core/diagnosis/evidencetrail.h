// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"

#include <QList>
#include <QStringList>

namespace lockscope {

// The events an incident shows of one token: its first and its last few. A token renewed every
// second for a day has tens of thousands; they are kept as events and put in words only when an
// incident needs them (a full recording holds millions). All of them are of one resource and token
// (the first event's): each is kept as its step alone, a quarter of a RecordEvent, and a trail
// makes one allocation per list, not one per growth (a pass over a recording makes millions).
class EvidenceTrail
{
public:
    static constexpr int kept = 5;

    void add(const RecordEvent& e)
    {
        if (m_head.isEmpty()) {
            m_resource = e.resource;
            m_token = e.token;
            m_head.reserve(kept);
        }
        if (m_head.size() < kept)
            return m_head.append(Step::of(e));
        if (m_tail.size() < kept) {
            if (m_tail.isEmpty())
                m_tail.reserve(kept);
            return m_tail.append(Step::of(e));
        }
        m_tail[m_oldest] = Step::of(e); // a ring: the oldest of the last few makes room
        m_oldest = (m_oldest + 1) % kept;
        ++m_skipped;
    }
    template <typename Format> QStringList lines(Format format) const
    {
        QStringList out;
        for (const Step& s : m_head)
            out << format(event(s));
        if (m_skipped > 0)
            out << QStringLiteral("… %1 more events of this token").arg(m_skipped);
        for (qsizetype i = 0; i < m_tail.size(); ++i)
            out << format(event(m_tail.at((m_oldest + i) % m_tail.size())));
        return out;
    }

private:
    // What an evidence line says of an event beside its resource and token.
    struct Step
    {
        qint64 timeMs = 0;
        RecordEvent::Kind kind = RecordEvent::Kind::Seen;
        int master = -1;
        qint64 ttlMs = -1;
        quint64 holders = 0;
        int holding = 0;
        QString detail;

        static Step of(const RecordEvent& e)
        {
            return Step{e.timeMs, e.kind, e.master, e.ttlMs, e.holders, e.holding, e.detail};
        }
    };

    RecordEvent event(const Step& s) const
    {
        RecordEvent e;
        e.timeMs = s.timeMs;
        e.kind = s.kind;
        e.resource = m_resource;
        e.master = s.master;
        e.token = m_token;
        e.ttlMs = s.ttlMs;
        e.holding = s.holding;
        e.holders = s.holders;
        e.detail = s.detail;
        return e;
    }

    QByteArray m_resource;
    QByteArray m_token;
    QList<Step> m_head;
    QList<Step> m_tail;
    qsizetype m_oldest = 0; // in m_tail, once it is full
    qint64 m_skipped = 0;
};

} // namespace lockscope
