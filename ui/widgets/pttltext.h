// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/masterobservation.h"

#include <QString>

namespace lockscope {

// A master's PTTL as the window shows it at nowMs, counted down from the time of the read
// ("1234 ms", "no expiry"); empty when the master does not hold the key.
QString pttlText(const MasterObservation& master, qint64 nowMs);

} // namespace lockscope
