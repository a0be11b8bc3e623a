// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

namespace lockscope {

// The family of a resource name: its variable parts folded, so that a million per-entity locks
// read as a handful of rows (`order:1234` and `order:88aa…` -> `order:*`). Folded: runs of digits,
// UUIDs, and runs of hex digits of 8 or more that hold a digit, each a whole word (the 2 of "v2api"
// stays). Separators and words stay.
namespace ResourceFamily {

QByteArray of(const QByteArray& resource);

} // namespace ResourceFamily

} // namespace lockscope
