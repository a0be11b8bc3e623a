// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/keyobservation.h"
#include "formats/recognizedlock.h"

#include <QByteArray>

// Single-holder locks kept as a string: LockScope's "<owner>/<hex>", redsync, python-redis-lock,
// redis-py's uuid1, node-redlock's hex, uuid tokens, redis-semaphore's mutex, legacy expiry
// timestamps, and plain text. Pure.
namespace lockscope::recognition {

// A string value (or a value whose type was not read). The token is the value itself.
RecognizedLock recognizeString(const QByteArray& key, const KeyObservation& o);
// A LegacyTimestamp lock judged against the wall clock `nowWallMs`: expired or not, the time left,
// and "expired at ..." / "expires at ..." as its detail and owner. Other formats are left alone.
void judgeLegacyTimestamp(RecognizedLock& lock, qint64 nowWallMs);
// A string lock's one holder: its token and owner, and for a uuid1 token, when it was made.
LockHolder impliedHolder(const RecognizedLock& lock);
// What a string lock's token says beyond its holder (a uuid1's time and node); empty for most.
QString impliedDetail(const RecognizedLock& lock);

} // namespace lockscope::recognition
