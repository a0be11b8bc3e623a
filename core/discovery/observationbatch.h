// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/keyobservation.h"

#include <QByteArrayList>
#include <QList>
#include <QMetaType>

#include <memory>

namespace lockscope {

// What a scan worker read in one step (a SCAN page, a burst of keyspace events, a pass's end),
// handed to the monitor's thread in one queued call instead of one per key. The keys are distinct.
struct ObservationBatch
{
    enum class Step : quint8
    {
        Observe, // present: observations.at(i) is what was read
        Remove,  // known before, gone now
        Skip,    // nothing new (a read error keeps what was known; an unknown key that is absent)
    };

    QByteArrayList keys;
    QList<quint32> hashes;              // HashedKey::hashOf() of each key, or none (to be computed)
    QList<Step> steps;                  // one per key
    QList<KeyObservation> observations; // one per key, or none when no key is observed (the
                                        // reader's list as it is, not copied key by key)
    qint64 knownKeys = 0;               // matching keys present on the master after this batch
};

// Shared only to hand it over without a copy: the worker lets go when it emits, the monitor's thread
// then owns it alone (and moves the observations out).
using ObservationBatchPtr = std::shared_ptr<ObservationBatch>;

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::ObservationBatchPtr)
