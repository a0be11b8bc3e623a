// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"

#include <QList>
#include <QStringList>

namespace lockscope {

// The events an incident shows of one token: its first and its last few. A token renewed every
// second for a day has tens of thousands; they are kept as events and put in words only when an
// incident needs them (a full recording holds millions).
class EvidenceTrail
{
public:
    static constexpr int kept = 5;

    void add(const RecordEvent& e)
    {
        if (m_head.size() < kept)
            return m_head.append(e);
        if (m_tail.size() == kept) {
            m_tail.removeFirst();
            ++m_skipped;
        }
        m_tail << e;
    }
    template <typename Format> QStringList lines(Format format) const
    {
        QStringList out;
        for (const RecordEvent& e : m_head)
            out << format(e);
        if (m_skipped > 0)
            out << QStringLiteral("… %1 more events of this token").arg(m_skipped);
        for (const RecordEvent& e : m_tail)
            out << format(e);
        return out;
    }

private:
    QList<RecordEvent> m_head;
    QList<RecordEvent> m_tail;
    qint64 m_skipped = 0;
};

} // namespace lockscope
