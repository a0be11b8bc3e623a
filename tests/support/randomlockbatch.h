// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/locktable.h"
#include "monitor/lockview.h"

#include <QRandomGenerator>

namespace lockscope::test {

// A monitor's batch at random, against `views`, what it has sent so far (kept up to date): up to five
// of the resources "r0".."r11", each added when `views` lacks it, else removed (one time in three)
// or changed, held (heldView) by a token "t0".."t999". For the window's queues, which must end as if
// every batch had been applied as it came.
LockBatch randomLockBatch(QRandomGenerator& rng, LockTable& views);

} // namespace lockscope::test
