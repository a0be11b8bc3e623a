// SPDX-License-Identifier: Apache-2.0
#include "session/watchgap.h"

#include <algorithm>

namespace lockscope {

QList<WatchGap> WatchGap::between(QList<RecordingSession> sessions, const QDateTime& now)
{
    std::sort(sessions.begin(), sessions.end(),
              [](const RecordingSession& a, const RecordingSession& b) { return a.startedMs < b.startedMs; });
    QList<WatchGap> gaps;
    qint64 watchedUntil = -1; // sessions may overlap (a window and `lockctl record` at once)
    for (const RecordingSession& s : sessions) {
        if (watchedUntil >= 0 && s.startedMs - watchedUntil > minimumMs)
            gaps << WatchGap{QDateTime::fromMSecsSinceEpoch(watchedUntil),
                             QDateTime::fromMSecsSinceEpoch(s.startedMs)};
        watchedUntil = std::max(watchedUntil, std::max(s.lastMs, s.startedMs));
    }
    if (watchedUntil >= 0 && now.toMSecsSinceEpoch() - watchedUntil > stoppedAfterMs)
        gaps << WatchGap{QDateTime::fromMSecsSinceEpoch(watchedUntil), now};
    return gaps;
}

} // namespace lockscope
