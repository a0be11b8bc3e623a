#pragma once

#include "record/resourcehistory.h"

namespace lockscope {

// Folds one resource's recorded events (oldest first) into episodes. Pure: the rules of how an
// episode ends live here, so the reader and its tests share them.
//
// A force-release comes from the audit log, usually a moment before or after the deletion it
// caused is seen: it ends the open episode with its token, or turns the end of the episode that
// ended within forceReleaseWindowMs before it into a force-release.
class EpisodeBuilder
{
public:
    static constexpr qint64 forceReleaseWindowMs = 10000;

    static QList<Episode> build(const QList<HistoryEvent>& events, const QList<RecordingSession>& sessions);
};

} // namespace lockscope
