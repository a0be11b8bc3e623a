// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/resourcehistory.h"

#include <QDateTime>
#include <QList>

namespace lockscope {

// A stretch of time nobody recorded: between two recording sessions, or after the last one when it
// stopped. The History view draws it as a gap, not as "nothing happened".
struct WatchGap
{
    // A session silent for longer than this before now has stopped (killed, or the window closed).
    static constexpr qint64 stoppedAfterMs = 5000;
    // Shorter pauses between sessions (a quick restart) are not worth a gap on the axis.
    static constexpr qint64 minimumMs = 1000;

    QDateTime from;
    QDateTime to;

    // The gaps between `sessions` (any order), and after the last one if it stopped before `now`.
    static QList<WatchGap> between(QList<RecordingSession> sessions, const QDateTime& now);
};

} // namespace lockscope
