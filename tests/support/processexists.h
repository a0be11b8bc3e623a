// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

namespace lockscope::test {

// Whether a process still runs. Zombies still answer kill(0), so /proc's state decides.
bool processExists(qint64 pid);
// The state letter /proc gives a process ('R' running, 'S' sleeping, 'T' stopped, 'Z' zombie ...);
// 0 when it is gone.
char processState(qint64 pid);

} // namespace lockscope::test
