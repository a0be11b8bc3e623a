// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

namespace lockscope::test {

// How much slower than an idle release build this run may be: 4 under AddressSanitizer (detected at
// compile time), times the machine's load (1-minute load average per core, at least 1), times
// LOCKSCOPE_TIME_SCALE when set (e.g. 2 on a slow CI runner). Always >= 1.
//
// Only UPPER time bounds are scaled with it: a lower bound ("waited at least the retry delay") holds
// on any machine, an upper bound ("answered in under 100 ms") is a speed claim, which the benchmarks
// make; in a test it only says "did not hang". Never scale a lower bound.
double timeScale();

// `ms` scaled by timeScale(), for an upper bound or a timeout.
qint64 upperBoundMs(qint64 ms);

} // namespace lockscope::test
