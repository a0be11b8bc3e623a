// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace lockscope {

// What the demo's clients went through, counted as it happens.
struct DemoCounters
{
    int acquisitions = 0;
    int busy = 0;        // the lock was someone else's: contention, not a failure
    int failures = 0;    // too few masters answered to decide
    int doubleHolds = 0; // a client got a lock while another still held it
    int writesAccepted = 0;
    int staleRejected = 0; // stale writes the fencing check stopped
    int staleAccepted = 0; // stale writes that got through (fencing off)
    int overruns = 0;      // work outlived the validity; the write was dropped

    int violations() const { return doubleHolds + staleAccepted; }

    // What happened between `baseline` (an earlier reading) and this one. A scenario's result line
    // and the panel's scenario counters are both this difference, taken between the same two
    // readings (DemoScenarioRunner::measured()), so they cannot disagree.
    DemoCounters since(const DemoCounters& baseline) const
    {
        DemoCounters d;
        d.acquisitions = acquisitions - baseline.acquisitions;
        d.busy = busy - baseline.busy;
        d.failures = failures - baseline.failures;
        d.doubleHolds = doubleHolds - baseline.doubleHolds;
        d.writesAccepted = writesAccepted - baseline.writesAccepted;
        d.staleRejected = staleRejected - baseline.staleRejected;
        d.staleAccepted = staleAccepted - baseline.staleAccepted;
        d.overruns = overruns - baseline.overruns;
        return d;
    }
};

} // namespace lockscope
