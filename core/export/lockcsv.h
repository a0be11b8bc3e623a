// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"

#include <QString>

namespace lockscope {

// The CSV form of the locks table (File > Export view as CSV): one line per lock, keys and tokens in
// the same escaped form as `lockctl list`, so a name copied from an export can be typed back.
namespace LockCsv {

QString header();
// One line, without the line break. Validity is counted down to `nowMs` (monotonic).
QString row(const LockView& view, qint64 nowMs);

} // namespace LockCsv

} // namespace lockscope
