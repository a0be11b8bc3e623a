// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QApplication;
class StallMeter;

namespace lockscope {
class MainWindow;
}

// `uibench --db FILE --insights`: the review of a recording, the Insights dock shown, and the time
// until its figures are in, with the GUI thread's longest stall meanwhile (issue #44: the view stays
// responsive with a million recorded locks). Prints one JSON line; exit 1 when the stall passes
// `maxStallMs` or no family was found.
int runInsights(QApplication& app, lockscope::MainWindow& window, StallMeter& meter, const QString& path,
                int limitMs, double maxStallMs);
