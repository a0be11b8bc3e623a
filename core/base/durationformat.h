// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

enum class DurationStyle
{
    // For people reading a sentence or a countdown at a glance: tenths under a minute ("12.3 s"),
    // then "4 m 05 s", "2 h 03 m", "3 d 4 h". The window and the diagnosis sentences (core and
    // lockctl) say times this way.
    Spaced,
    // For a table's narrow cell (lockctl list and watch): "9.8s", "2m03s", "1h05m", hours on past a
    // day ("30h00m").
    Compact,
    // Compact, with whole milliseconds under a second ("433ms"): lockctl stats' holds and gaps,
    // where 0.4s and 0.5s would hide what the figures are about.
    CompactMilliseconds,
};

// A duration in `style`; empty for a negative duration.
QString formatDuration(qint64 ms, DurationStyle style = DurationStyle::Spaced);

} // namespace lockscope
