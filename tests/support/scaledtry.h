// SPDX-License-Identifier: Apache-2.0
#pragma once

// Every QTRY_* wait in this suite says "this happens within N ms": an upper bound, which only claims
// that nothing hangs (speed is the benchmarks' business). So each is scaled like any upper bound
// (timebound.h): the sanitizer build on a loaded two-core machine waits longer instead of failing.
// A wait that succeeds returns as soon as its condition holds, so a passing test pays nothing.
// Qt 6.4's QTRY_* macros all expand to QTRY_IMPL(expr, timeout); only that one is replaced, with the
// same loop and the same "would have been sufficient" report on failure, over the scaled timeout.

#include "support/timebound.h"

#include <QTest>

#ifndef QTRY_IMPL
#error "QTRY_IMPL is gone from this Qt: scale the QTRY_* timeouts another way (tests/support/scaledtry.h)"
#endif
#undef QTRY_IMPL
#define QTRY_IMPL(expr, timeout)                                                                             \
    const int qt_test_timeoutValue = int(::lockscope::test::upperBoundMs(timeout));                          \
    const int qt_test_step = qt_test_timeoutValue < 350 ? qt_test_timeoutValue / 7 + 1 : 50;                 \
    {QTRY_LOOP_IMPL(expr, qt_test_timeoutValue, qt_test_step)} QTRY_TIMEOUT_DEBUG_IMPL(                      \
        expr, qt_test_timeoutValue, qt_test_step)
