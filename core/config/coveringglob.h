// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/compiledglob.h"

#include <QByteArray>

#include <vector>

namespace lockscope {

// One glob that matches every key any of `globs` matches, and as few others as it can: SCAN's
// MATCH for a pass over several patterns, which then come back to be matched here. Built from the
// bytes each glob requires (CompiledGlob::requiredBytes): *[cm]*[kpx]* (each byte escaped) for
// *lock*, mutex:* and semaphore:*, of each two of its rarer bytes in key names, in its order. Empty
// when one of them requires no byte ("*", "????", "[ab]*"): every key may be one of its.
QByteArray coveringGlob(const std::vector<CompiledGlob>& globs);

} // namespace lockscope
