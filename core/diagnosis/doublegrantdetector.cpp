// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/doublegrantdetector.h"

#include "diagnosis/doublegrantscan.h"
#include "record/recordingreader.h"

#include <QHash>

#include <optional>
#include <unordered_map>

namespace lockscope {

namespace {

struct ScanKeyHash
{
    size_t operator()(const QPair<qint64, qint64>& key) const noexcept
    {
        return size_t(key.first) * 0x9E3779B97F4A7C15ULL ^ size_t(key.second);
    }
};

} // namespace

QList<SafetyIncident> DoubleGrantDetector::detect(const ResourceHistory& history)
{
    QList<SafetyIncident> out;
    QHash<qint64, const RecordingSession*> sessions;
    for (const RecordingSession& s : history.sessions)
        sessions.insert(s.id, &s);
    // Each session's master events first: a scan reads only those up to each event's time.
    std::unordered_map<qint64, QList<RecordEvent>> masterEvents;
    for (const HistoryEvent& h : history.events)
        if (h.event.isMasterEvent() && DoubleGrantScan::explainsALoss(h.event.kind))
            masterEvents[h.session] << h.event;
    std::optional<DoubleGrantScan> scan;
    qint64 current = -1;
    for (const HistoryEvent& h : history.events) {
        if (h.event.isMasterEvent())
            continue;
        if (h.session != current || !scan) {
            // Nothing carries from one session to the next: what happened between was not watched.
            const RecordingSession* s = sessions.value(h.session);
            scan.reset();
            scan.emplace(history.resource, s ? int(s->masters.size()) : 0,
                         s ? qMax(s->lastMs, s->endedMs) : h.event.timeMs, masterEvents[h.session], out);
            current = h.session;
        }
        scan->add(h.event);
    }
    scan.reset(); // settles what is still open
    return out;
}

Result<QList<SafetyIncident>> DoubleGrantDetector::detectAll(RecordingReader& reader, int evictEvery)
{
    const Result<QList<RecordingSession>> sessions = reader.sessions();
    if (!sessions)
        return sessions.error();
    QHash<qint64, RecordingSession> bySession;
    for (const RecordingSession& s : *sessions)
        bySession.insert(s.id, s);
    QList<SafetyIncident> out;
    std::unordered_map<qint64, QList<RecordEvent>> masterEvents; // per session, as the pass meets them
    // One scan per (session, resource) while it matters; an idle one is forgotten, so a pass over
    // millions of locks keeps only the few being judged. Keyed by the file's numbers, not names:
    // hashing a name for each of millions of events was a tenth of the pass.
    std::unordered_map<QPair<qint64, qint64>, std::unique_ptr<DoubleGrantScan>, ScanKeyHash> scans;
    qint64 sinceEviction = 0;
    const RedisError error = reader.forEachEvent([&](const HistoryEvent& h) {
        if (h.event.isMasterEvent()) {
            if (DoubleGrantScan::explainsALoss(h.event.kind))
                masterEvents[h.session] << h.event;
            return true;
        }
        std::unique_ptr<DoubleGrantScan>& scan = scans[qMakePair(h.session, h.resourceId)];
        if (!scan) {
            const RecordingSession s = bySession.value(h.session);
            scan = std::make_unique<DoubleGrantScan>(h.event.resource, int(s.masters.size()),
                                                     qMax(s.lastMs, s.endedMs), masterEvents[h.session], out);
        }
        scan->add(h.event);
        // Every so many events, the idle scans go (their incidents, if any, are settled). At least
        // a few events per scan between two looks: each look visits every scan.
        if (++sinceEviction >= qMax<qint64>(evictEvery, 4 * qint64(scans.size()))) {
            sinceEviction = 0;
            std::erase_if(scans, [now = h.event.timeMs](const auto& it) { return it.second->idle(now); });
        }
        return true;
    });
    if (error)
        return error;
    scans.clear(); // settles what is still open
    return out;
}

} // namespace lockscope
