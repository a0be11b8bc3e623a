// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/safetyincident.h"
#include "record/committedbatch.h"
#include "record/resourcehistory.h"

#include <QHash>
#include <QList>
#include <QSet>

#include <functional>
#include <memory>
#include <unordered_map>

namespace lockscope {

// Two holders at once, judged as a recorder commits: one DoubleGrantScan per resource of the
// followed session, each committed event fed to it once. A lock's story is read from the file at
// most once (to begin its scan when its beginning lies before what was followed), not again at
// every event that makes it suspect: at 5,000 changes a second those reads, about 1 ms each, were
// most of the live detection's cost.
//
// A scan goes on only along its resource's chain in the file (each committed event names the one
// before it): an event written between by someone else (another recorder on the same file) ends
// it, and the resource's story is read again when it next matters. The same detector, fed the same
// events in the same order, as `lockctl incidents` runs over the file.
class LiveScans
{
public:
    // Scans followed at once: no more begin past it, and some held ones go (their stories are
    // read again if needed).
    static constexpr qsizetype maxScans = 20000;
    // A lock held before the session began (seen in its first pass, not seen taken) begins one only
    // while fewer are followed: a first pass over 100k locks began 20,000 stories at about 1 KB
    // each, none with anything to judge yet, 30 MB of the window's peak.
    static constexpr qsizetype maxSeenScans = 2000;
    // Resources whose last event left nothing held (a scan may begin at their next event).
    static constexpr qsizetype maxEndedKnown = 100000;

    LiveScans();
    ~LiveScans();
    LiveScans(const LiveScans&) = delete;
    LiveScans& operator=(const LiveScans&) = delete;

    // Each event to its resource's scan, where there is one or one can begin (the resource is new
    // to the file, or its last event left nothing held). A batch of another session starts over.
    void feed(const CommittedBatch& batch);
    // Whether `resource` has a scan now (what makes it suspect is judged there, with no read).
    bool covers(const QByteArray& resource) const;
    // Begins the scan of `history.resource` from its story, for the events committed after it.
    // False when the story holds nothing of the followed session (none followed yet).
    bool begin(const ResourceHistory& history);
    // The incidents of the scans fed since the last offer that were not told as they stand, as
    // watched until `nowMs`: `tell` returns false for one it holds back, offered again next time.
    void offer(qint64 nowMs, const std::function<bool(const SafetyIncident&)>& tell);
    // Something waits for offer().
    bool offering() const { return !m_fed.isEmpty(); }
    // Forgets the scans that would lose nothing (idle at `nowMs`) and, past maxScans, others.
    void forget(qint64 nowMs);
    qsizetype size() const { return qsizetype(m_scans.size()); }

private:
    struct Scan;
    Scan& start(const QByteArray& resource, qint64 startMs);
    void addMasterEvent(qint64 id, const RecordEvent& event);

    qint64 m_session = -1;
    int m_masters = 0;
    // The followed session's restarts, failovers and outages, oldest first: every scan reads them.
    QList<RecordEvent> m_masterEvents;
    QSet<qint64> m_masterIds;
    struct NameHash
    {
        size_t operator()(const QByteArray& name) const noexcept { return qHash(name); }
    };
    std::unordered_map<QByteArray, std::unique_ptr<Scan>, NameHash> m_scans;
    QHash<QByteArray, qint64> m_endedAt; // resource -> its last event, which left nothing held
    QSet<QByteArray> m_fed;              // scans with incidents to offer
};

} // namespace lockscope
