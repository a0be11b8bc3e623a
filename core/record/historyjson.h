// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/resourcehistory.h"

#include <QJsonObject>
#include <QStringList>

namespace lockscope {

// A resource's recorded history as `lockctl history` prints it (docs/manual/flight-recorder.md):
// {"resource", "masters", "otherMasterSets", "recordedBy", "episodes": [{"token", "owner", "start", "end",
// "ended", "extensions", "maxHolding", "masters"}], "events": [...]}, times ISO 8601 UTC with milliseconds,
// bytes escaped (escapeBytes).
class HistoryJson
{
public:
    static QJsonObject history(const ResourceHistory& history);
    static QJsonObject episode(const Episode& episode);
    static QJsonObject event(const HistoryEvent& event);
    // "2026-11-24T08:12:01.123Z"
    static QString time(qint64 ms);
    // Who recorded the events shown (user@host/program:pid), once each: several recorders may
    // write one file (issue #45).
    static QStringList recorders(const ResourceHistory& history);
    // The readable form: one line per episode, then one per event.
    static QStringList text(const ResourceHistory& history);
};

} // namespace lockscope
