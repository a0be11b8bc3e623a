// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "diagnosis/safetyincident.h"
#include "record/resourcehistory.h"

#include <QList>

namespace lockscope {

class RecordingReader;

// Two holders at once, from one resource's recorded events alone (no master is asked): the
// recorder keeps each token held at once as its own episode (`contested`), with the masters
// holding it at every change, so a moment when two tokens each held a quorum is in the record.
// Pure; the same answer for a recording read anywhere. Incidents and what each kind means:
// safetyincident.h.
//
// A token that held a quorum (N/2 + 1 of its session's masters) holds the lock until its validity
// ends (the validity it was seen with, pushed on by its extensions) or it gives the lock up
// (released, force-released, expired). Another token reaching a quorum before then is a second
// holder at once, proven by the observation alone, whether or not the first still shows on a
// quorum (a restarted master forgot its copy, a failover lost it):
//  - majority overlap: on several masters; the cause names the restart or failover of a master that
//    held the first token, when one was recorded;
//  - failover loss: on one master (a Sentinel group's primary), where no observation can show two
//    tokens at once and the first one's validity is what proves the overlap; overwritten while
//    held when no failover or restart explains it.
// A token that expired without a release and was taken by another soon after (within the old
// lease's length) may have had a holder paused past its lease: a handover under a live holder,
// possible only, since the record cannot tell a paused holder from a killed one.
// Nothing carries from one recording session to the next: what happened between was not watched.
namespace DoubleGrantDetector {

QList<SafetyIncident> detect(const ResourceHistory& history);
// Every resource of a whole recording in one pass over its events in the order they were recorded
// (`lockctl incidents`: millions of events in seconds, holding only the locks being judged).
// The idle scans are forgotten every `evictEvery` events.
Result<QList<SafetyIncident>> detectAll(RecordingReader& reader, int evictEvery = 65536);

} // namespace DoubleGrantDetector

} // namespace lockscope
