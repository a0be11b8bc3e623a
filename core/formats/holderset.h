// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/keyobservation.h"
#include "formats/recognizedlock.h"

#include <QByteArrayList>
#include <QString>

// What the recognisers of multi-holder locks (Redisson hashes, semaphores) and of collections of
// no known shape share. Pure.
namespace lockscope::recognition {

// "1 of 300 entries read" for a collection cut at the read limit; empty when it was read whole.
QString partialNote(const KeyObservation& o, qsizetype read);
// Multi-holder locks: sorts the holders, keeps them as the lock's listed holders and makes the token the
// sorted holder ids joined by ',', so every master holding the same set yields the same token; the owner is
// the one holder's, or "N holders".
void finishHolders(RecognizedLock& lock, QList<LockHolder> holders);
// A hash or sorted set of no lock shape: format Unknown, the sorted field or member names as the
// token, `what` (and how much was read) as the detail.
RecognizedLock unknownCollection(const KeyObservation& o, QByteArrayList names, const QString& what);

} // namespace lockscope::recognition
