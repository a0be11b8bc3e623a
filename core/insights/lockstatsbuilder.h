// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "insights/familyfigures.h"
#include "insights/familysamples.h"
#include "record/episodebuilder.h"
#include "record/resourcehistory.h"

#include <QHash>

#include <memory>
#include <unordered_map>

namespace lockscope {

class RecordingReader;

// Figures per family of locks (`lockctl stats`, the window's Insights) from one pass over a
// recording's events: each lock's tenures are built by the recording's own rules (EpisodeBuilder)
// and folded into its family's samples once they can no longer change, so the pass keeps only the
// locks in play, not the recording.
//
// A handover is a release or expiry followed by the next holder within handoverWithinMs; a lock
// free for longer was idle, not handed over. A renewal is an extension of the holder seen being
// taken; the same renewal read on several masters (within a twentieth of the lease) counts once.
class LockStatsBuilder
{
public:
    static constexpr qint64 handoverWithinMs = 10 * 60 * 1000;

    // `sessions`: the recording's sessions (their masters and ends); `sinceMs` (wall clock, -1: all)
    // keeps tenures that ended (and acquisitions, renewals and handovers that happened) from then on.
    explicit LockStatsBuilder(const QList<RecordingSession>& sessions, qint64 sinceMs = -1);
    ~LockStatsBuilder();

    // The next event of the recording, in the order recorded.
    void add(const HistoryEvent& h);
    // The figures of every family, riskiest first. Ends the pass.
    QList<FamilyFigures> finish();

    // The whole recording at once.
    static Result<QList<FamilyFigures>> ofRecording(RecordingReader& reader, qint64 sinceMs = -1);

private:
    struct Lock;
    struct LockKey
    {
        qint64 session;
        qint64 resource;
        bool operator==(const LockKey&) const = default;
    };
    struct LockKeyHash
    {
        size_t operator()(const LockKey& k) const noexcept
        {
            return std::hash<qint64>()(k.session * 1000003 ^ k.resource);
        }
    };

    Lock& lockOf(const HistoryEvent& h);
    void track(Lock& lock, const RecordEvent& e);
    void fold(FamilySamples& family, const Episode& episode);
    void settle(Lock& lock, qint64 nowMs);
    // Every so many events: settles what can no longer change, and forgets locks long idle.
    void evict(qint64 nowMs);

    QHash<qint64, RecordingSession> m_sessions;
    qint64 m_lastSession = -1;
    qint64 m_sinceMs = -1;
    qint64 m_firstMs = -1;
    qint64 m_lastMs = -1;
    std::unordered_map<LockKey, std::unique_ptr<Lock>, LockKeyHash> m_locks;
    QHash<QByteArray, int> m_familyIndex;
    std::vector<FamilySamples> m_families;
    qint64 m_sinceEviction = 0;
};

} // namespace lockscope
