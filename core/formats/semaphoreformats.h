// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/keyobservation.h"
#include "formats/recognizedlock.h"

#include <QByteArray>

// redis-semaphore's layouts: a semaphore is a sorted set under "semaphore:" with one member per
// permit (scored by when it was taken), a mutex a string under "mutex:" holding a uuid. Pure.
namespace lockscope::recognition {

// Any sorted set: a Semaphore under "semaphore:", else Unknown ("sorted set").
RecognizedLock recognizeSortedSet(const QByteArray& key, const KeyObservation& o);
// Where redis-semaphore keeps a mutex: a uuid token under this key is a SemaphoreMutex.
bool isSemaphoreMutexKey(const QByteArray& key);
// A mutex token with redis-semaphore's identifierSuffix: "<uuid>-<suffix>", printable.
bool isSuffixedMutexToken(const QByteArray& key, const QByteArray& value);

} // namespace lockscope::recognition
