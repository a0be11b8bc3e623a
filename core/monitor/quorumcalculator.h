// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "monitor/lockview.h"

namespace lockscope {

// Turns what each master shows for one resource into the quorum view and its status.
// Pure and deterministic, so every status can be unit-tested without a server.
namespace QuorumCalculator {

// `observations` has one entry per master, in master order; an observation with an error
// means that master could not be read. `nowMs` is the monotonic clock.
LockView compute(const QByteArray& resource, const QList<MasterObservation>& observations,
                 const RedlockSettings& drift, qint64 nowMs);

} // namespace QuorumCalculator

} // namespace lockscope
