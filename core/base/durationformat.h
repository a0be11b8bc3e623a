#pragma once

#include <QString>

namespace lockscope {

// A duration as people read it at a glance: tenths under a minute ("12.3 s"), then "4 m 05 s",
// "2 h 03 m", "3 d 4 h". Empty for a negative duration. The window's countdowns and the diagnosis
// sentences (core and lockctl) say times the same way.
QString formatDuration(qint64 ms);

} // namespace lockscope
