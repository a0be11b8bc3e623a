// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/hashedkey.h"
#include "formats/keyobservation.h"

namespace lockscope {

// Where a MasterScanner delivers what it reads; the LockMonitor is the one real sink.
class ObservationSink
{
public:
    virtual ~ObservationSink() = default;
    // `observation` is the sink's to keep (moved from).
    virtual void keyObserved(int master, const HashedKey& key, KeyObservation&& observation) = 0;
    virtual void keyRemoved(int master, const HashedKey& key) = 0;
};

} // namespace lockscope
