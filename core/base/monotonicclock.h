// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>
#include <chrono>
#include <ctime>

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

// The CPU time the calling thread has used: the work a step did, whether or not the thread waited
// for a core meanwhile (a busy machine stretches the wall clock, not this).
inline qint64 threadCpuNs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return qint64(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

// The CPU time every thread of the process has used.
inline qint64 processCpuNs()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return qint64(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

} // namespace lockscope
