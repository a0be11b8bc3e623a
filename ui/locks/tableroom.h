// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

namespace lockscope {

// The rows to size the window's per-lock tables for when `forecast` locks are expected: a quarter
// more, for a forecast that is still rising, but not past the power of two at or above the
// forecast. A hash table's room comes in powers of two; a quarter more than a million is a table
// twice the size, most of it never used.
qsizetype tableRoomFor(qint64 forecast);

} // namespace lockscope
