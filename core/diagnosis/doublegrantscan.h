// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/safetyincident.h"
#include "record/recordevent.h"

#include <QList>

#include <memory>

namespace lockscope {

// Two holders at once, judged as one resource's recorded events come in, within one recording
// session (its masters, so its quorum, are fixed): DoubleGrantDetector runs one per resource and
// session, over a history or over a whole recording in one pass. Incidents go into `out` as they
// are found; their ends settle as the two holders' parts end (at the latest when the scan goes).
//
// A token that held a quorum (N/2 + 1 of the session's masters) holds the lock until its validity
// ends (the validity it was seen with, pushed on by its extensions) or it gives the lock up
// (released, force-released, expired, or gone below its quorum from masters nothing happened to: a
// release reaching them). Another token reaching a quorum before then is a second holder at once,
// proven by the observation alone; a first token replaced in place, or an expiry followed at once
// by another holder, is only possible (the record cannot tell a fast release, or a killed holder).
class DoubleGrantScan
{
public:
    // `masterEvents`: the session's restarts, failovers and outages (explainsALoss), oldest first;
    // the scan reads those up to each event's time, so the list may grow as a pass goes on. It and
    // `out` must outlive the scan.
    DoubleGrantScan(const QByteArray& resource, int masters, qint64 lastMs,
                    const QList<RecordEvent>& masterEvents, QList<SafetyIncident>& out);
    ~DoubleGrantScan();
    DoubleGrantScan(const DoubleGrantScan&) = delete;
    DoubleGrantScan& operator=(const DoubleGrantScan&) = delete;

    // The resource's next event (in the order they were recorded).
    void add(const RecordEvent& event);
    // The session watched until `ms` (a live scan between events): the ends of the incidents still
    // open move on to it, as a later read of the story would say.
    void watchedUntil(qint64 ms);
    // Forgetting the scan now would lose nothing: nothing held, nothing open, no handover to come.
    bool idle(qint64 nowMs) const;

    // How much later than it happens the recorder may see a release (the delete's keyspace event,
    // the read it sets off, the batch): a first holder that let go within this after a second was
    // seen on a quorum may have let go before the second took the lock. Its overlap is possible.
    static constexpr qint64 releaseSeenWithinMs = 250;

    // The master events a scan is given: those that can explain a lost copy.
    static bool explainsALoss(RecordEvent::Kind kind);

private:
    class Impl;
    std::unique_ptr<Impl> d;
};

} // namespace lockscope
