// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/livescans.h"

#include "diagnosis/doublegrantscan.h"

#include <algorithm>

namespace lockscope {

struct LiveScans::Scan
{
    Scan(const QByteArray& resource, int masters, qint64 startMs, const QList<RecordEvent>& masterEvents)
        : scan(resource, masters, startMs, masterEvents, out)
    {}

    void add(const RecordEvent& event, qint64 id)
    {
        scan.add(event);
        lastId = qMax(lastId, id);
    }

    QList<SafetyIncident> out; // before `scan`: it settles what is open into this as it goes
    DoubleGrantScan scan;
    qint64 lastId = 0; // the resource's last event fed: its chain goes on from there
    // Per incident of `out`, the confidence it was told with (-1: not told yet).
    QList<int> toldAs;
};

LiveScans::LiveScans() = default;
LiveScans::~LiveScans() = default;

LiveScans::Scan& LiveScans::start(const QByteArray& resource, qint64 startMs)
{
    auto scan = std::make_unique<Scan>(resource, m_masters, startMs, m_masterEvents);
    Scan& out = *scan;
    m_scans[resource] = std::move(scan);
    return out;
}

void LiveScans::addMasterEvent(qint64 id, const RecordEvent& event)
{
    if (!DoubleGrantScan::explainsALoss(event.kind) || m_masterIds.contains(id))
        return;
    m_masterIds.insert(id);
    // In time order: a scan reads those up to each event's time (one read from a story may be
    // older than those followed since).
    const auto at = std::upper_bound(m_masterEvents.begin(), m_masterEvents.end(), event.timeMs,
                                     [](qint64 ms, const RecordEvent& e) { return ms < e.timeMs; });
    m_masterEvents.insert(at, event);
}

void LiveScans::feed(const CommittedBatch& batch)
{
    if (batch.session != m_session) {
        // Nothing carries from one session to the next: what happened between was not watched.
        m_scans.clear();
        m_endedAt.clear();
        m_fed.clear();
        m_masterEvents.clear();
        m_masterIds.clear();
        m_session = batch.session;
        m_masters = batch.masters;
    }
    for (qsizetype i = 0; i < batch.events.size(); ++i) {
        const RecordEvent& e = batch.events.at(i);
        const qint64 id = batch.firstId + i;
        if (e.isMasterEvent()) {
            addMasterEvent(id, e);
            continue;
        }
        const qint64 previous = batch.previous.value(i, -1);
        if (const auto it = m_scans.find(e.resource); it != m_scans.end()) {
            Scan& scan = *it->second;
            if (id <= scan.lastId)
                continue; // in the story its scan began with (read after this was committed)
            if (previous != scan.lastId) {
                m_scans.erase(it); // someone else's event came between: read again when it matters
                continue;
            }
            scan.add(e, id);
            m_fed.insert(e.resource);
            continue;
        }
        // A story that begins here: the resource is new to the file, or its last event left
        // nothing held.
        bool begins = previous == 0;
        if (const auto ended = m_endedAt.constFind(e.resource); ended != m_endedAt.cend()) {
            begins = begins || ended.value() == previous;
            m_endedAt.erase(ended);
        }
        const qsizetype bound = e.kind == RecordEvent::Kind::Seen ? maxSeenScans : maxScans;
        if (!begins || qsizetype(m_scans.size()) >= bound)
            continue; // read back if it becomes suspect (a first pass over a million locks begins
                      // a story for each: memory, not judgement, bounds how many are followed)
        start(e.resource, e.timeMs).add(e, id);
        m_fed.insert(e.resource);
    }
}

bool LiveScans::covers(const QByteArray& resource) const
{
    return m_scans.find(resource) != m_scans.end();
}

bool LiveScans::begin(const ResourceHistory& history)
{
    const auto session = std::find_if(history.sessions.cbegin(), history.sessions.cend(),
                                      [this](const RecordingSession& s) { return s.id == m_session; });
    if (m_session < 0 || session == history.sessions.cend())
        return false;
    for (const HistoryEvent& h : history.events)
        if (h.event.isMasterEvent() && h.session == m_session)
            addMasterEvent(h.id, h.event);
    Scan* scan = nullptr;
    qint64 lastId = 0;
    for (const HistoryEvent& h : history.events) {
        if (h.event.isMasterEvent())
            continue;
        lastId = qMax(lastId, h.id); // the chain's last, whoever wrote it
        if (h.session != m_session)
            continue;
        if (!scan)
            scan = &start(history.resource, h.event.timeMs);
        scan->add(h.event, h.id);
    }
    if (!scan)
        return false;
    scan->lastId = lastId;
    m_endedAt.remove(history.resource);
    m_fed.insert(history.resource);
    return true;
}

void LiveScans::offer(qint64 nowMs, const std::function<bool(const SafetyIncident&)>& tell)
{
    QSet<QByteArray> again;
    for (const QByteArray& resource : std::as_const(m_fed)) {
        const auto it = m_scans.find(resource);
        if (it == m_scans.end())
            continue;
        Scan& scan = *it->second;
        // The session watches on: a holder still holding holds as far as now, not only as far as
        // the last event (a first holder's release read soon after the second's quorum is judged
        // against that).
        scan.scan.watchedUntil(nowMs);
        scan.toldAs.resize(scan.out.size(), -1);
        for (qsizetype i = 0; i < scan.out.size(); ++i) {
            const SafetyIncident& incident = scan.out.at(i);
            if (scan.toldAs.at(i) == int(incident.confidence))
                continue;
            if (tell(incident))
                scan.toldAs[i] = int(incident.confidence);
            else
                again.insert(resource);
        }
    }
    m_fed = std::move(again);
}

void LiveScans::forget(qint64 nowMs)
{
    // Idle: nothing held, nothing open, no handover to come. Its next event begins a new story.
    for (auto it = m_scans.begin(); it != m_scans.end();) {
        if (!m_fed.contains(it->first) && it->second->scan.idle(nowMs)) {
            if (m_endedAt.size() >= maxEndedKnown)
                m_endedAt.clear(); // those read again if they matter
            m_endedAt.insert(it->first, it->second->lastId);
            it = m_scans.erase(it);
        } else {
            ++it;
        }
    }
    // Past the bound, any that has nothing to offer: its story is in the file, read again if it
    // becomes suspect.
    if (qsizetype(m_scans.size()) <= maxScans)
        return;
    for (auto it = m_scans.begin(); it != m_scans.end() && qsizetype(m_scans.size()) > maxScans * 3 / 4;)
        it = m_fed.contains(it->first) ? std::next(it) : m_scans.erase(it);
}

} // namespace lockscope
