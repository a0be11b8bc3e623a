// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

// What a traced command meant for the lock, told by the lock's state before and after it ran.
enum class TraceMeaning
{
    Acquired,     // an acquire attempt that took the lock (also an unguarded write to a free lock)
    Refused,      // an acquire attempt the lock turned away: someone else held it
    Extended,     // the holder made its lease longer (or re-entered a re-entrant lock)
    Released,     // the holder let it go: token-checked, or a plain DEL from the holder's connection
    StaleRelease, // a release with a token that no longer holds it: a holder still running past its lease
    StaleExtend,  // an extend with a token that no longer holds it
    DeletedByNonHolder, // an unguarded DEL from a connection that does not hold the lock
    Replaced,           // a plain write put another value over the holder's
    Waiting,            // a waiter subscribing to the unlock channel or blocking on the wake-up list
    Read,               // a look that changed nothing
    Other,              // any other command on the lock's keys
};

// The word JSON and the recording use ("stale-release", ...).
QString traceMeaningName(TraceMeaning meaning);
// For people: "release with a token that no longer holds it".
QString traceMeaningText(TraceMeaning meaning);
// A command that tells of a holder running past its lease, or of a lock taken from under one.
bool isTraceWarning(TraceMeaning meaning);

} // namespace lockscope
