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
};

} // namespace lockscope
