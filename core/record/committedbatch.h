// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"

#include <QList>
#include <QMetaType>

namespace lockscope {

// A batch of events as the recording now holds them, with where each sits in the file: what
// follows the recording live (IncidentWatch) continues a resource's chain from it instead of
// reading the resource back.
struct CommittedBatch
{
    RecordEventList events;
    qint64 session = -1; // the session that wrote them
    int masters = 0;     // its masters (master i of the events)
    qint64 firstId = 0;  // events[i] is row firstId + i
    // Per event, its resource's event before it in the file, whoever wrote that (0: the resource's
    // first; a master event has none).
    QList<qint64> previous;
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::CommittedBatch)
