#pragma once

#include <QSize>

namespace lockscope::test {

// Call before the QApplication is made: the offscreen platform (the suite's) gets one screen of
// this size, through a JSON configuration file (Qt's "offscreen:configfile=" option), instead of
// its default 800x600. Returns false when another platform was chosen: a test then checks the
// screen it got and skips.
bool useOffscreenScreen(const QSize& size);

} // namespace lockscope::test
