// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"

#include <QByteArray>
#include <QHash>

namespace lockscope {

// What the tracer told of lapsed holders, by token, for the scan of one lock. Bounded: a lock that
// changes hands a million times keeps the last few thousand.
class LapsedHolders
{
public:
    // How far from the handover the tracer's word about it may be (it asks the master once it sees
    // the take; the recorder sees the take on its own, before or after).
    static constexpr qint64 withinMs = 5000;

    void note(const RecordEvent& told);
    // What the tracer told of `token`'s holder at a handover near `atMs`; null if nothing.
    const RecordEvent* about(const QByteArray& token, qint64 atMs) const;

private:
    static constexpr qsizetype maxTokens = 4096;
    QHash<QByteArray, RecordEvent> m_told;
};

} // namespace lockscope
