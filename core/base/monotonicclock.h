#pragma once

#include <QtGlobal>
#include <chrono>

namespace lockscope {

// Lock validity is measured on this clock: wall-clock jumps must not stretch or shrink a lease.
inline qint64 monotonicNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

inline qint64 monotonicMs()
{
    return monotonicNs() / 1000000;
}

} // namespace lockscope
