// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "demo/democluster.h"

namespace lockscope {

// A span of time during which a demo master was killed, paused or still starting.
struct DemoOutage
{
    int master = -1;
    DemoCluster::MasterState kind = DemoCluster::MasterState::Killed;
    qint64 startMs = 0; // monotonic
    qint64 endMs = -1;  // monotonic; -1 while it lasts

    bool isOpen() const { return endMs < 0; }
};

} // namespace lockscope
