// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QtGlobal>

namespace lockscope {

// The verdict per resource across all masters (docs/manual/statuses.md explains each to users).
enum class LockStatus : quint8 // a byte: a view is kept per lock
{
    Held,      // one token on at least `needed` masters, with expiry, no other token anywhere
    Partial,   // present somewhere, but no token reaches `needed`
    Contested, // two or more different tokens across masters
    Stuck,     // no expiry where it is held, or a legacy timestamp already past
    Unknown,   // too many masters unreachable to decide
};

QString lockStatusName(LockStatus status);

} // namespace lockscope
