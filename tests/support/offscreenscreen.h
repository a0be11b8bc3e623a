// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSize>

namespace lockscope::test {

// Call before the QApplication is made: the offscreen platform (the suite's) gets one screen of
// this size, through a JSON configuration file (Qt's "offscreen:configfile=" option), instead of
// its default 800x600. Returns false when another platform was chosen: a test then checks the
// screen it got and skips.
bool useOffscreenScreen(const QSize& size);

} // namespace lockscope::test

// A window test's entry (testregistry.h) on one screen of `size`: QTEST_MAIN's, the screen set first.
#define LOCKSCOPE_TEST_MAIN_ON_SCREEN(TestObject, size)                                                      \
    LOCKSCOPE_TEST_MAIN_WITH(TestObject, ::lockscope::test::useOffscreenScreen(size); QTEST_MAIN_SETUP())
