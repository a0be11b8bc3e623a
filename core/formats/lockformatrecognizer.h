// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "formats/keyobservation.h"
#include "formats/ownerrule.h"
#include "formats/recognizedlock.h"

#include <QList>

namespace lockscope {

// Decodes what a key on one master means as a lock, from its name, type and value alone
// (the formats of shared/reference/lock-formats.md). Pure: no I/O, safe on any thread.
namespace LockFormatRecognizer {

// `nowWallMs` is the wall clock (ms since the epoch) used to judge legacy timestamps.
RecognizedLock recognize(const QByteArray& key, const KeyObservation& observation,
                         const QList<OwnerRule>& ownerRules, qint64 nowWallMs);

} // namespace LockFormatRecognizer

} // namespace lockscope
