// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "insights/familyfigures.h"
#include "insights/familysamples.h"
#include "record/episodebuilder.h"
#include "record/resourcehistory.h"

#include <QHash>

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

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

    // Figures alone (`lockctl stats`), or with the pictures the window draws (FamilyPictures): they
    // keep a time per acquisition and per ending until the end of the pass.
    enum class Detail
    {
        Figures,
        Pictures,
    };

    // `sessions`: the recording's sessions (their masters and ends); `sinceMs` (wall clock, -1: all)
    // keeps tenures that ended (and acquisitions, renewals and handovers that happened) from then on.
    explicit LockStatsBuilder(const QList<RecordingSession>& sessions, qint64 sinceMs = -1,
                              Detail detail = Detail::Figures);
    ~LockStatsBuilder();

    // The next event of the recording, in the order recorded.
    void add(const HistoryEvent& h);
    // The figures of every family, riskiest first. Ends the pass.
    QList<FamilyFigures> finish();

    // The whole recording at once.
    // The whole recording at once; `keepGoing` is asked now and then and ends the pass (an error
    // result) when it says no.
    static Result<QList<FamilyFigures>> ofRecording(RecordingReader& reader, qint64 sinceMs = -1,
                                                    Detail detail = Detail::Figures,
                                                    const std::function<bool()>& keepGoing = {});

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

    static constexpr qint64 maxDenseResourceId = qint64(1) << 28;
    static constexpr size_t compactFrom = 200000;

    // A master index past this is not a session's (a corrupt row): never a vector that large.
    static constexpr int maxTracedMasters = 1024;
    Lock& lockOf(const HistoryEvent& h);
    // Waiters read, attempts the tracer saw turned away.
    void observeContention(Lock& lock, const RecordEvent& e);
    // Whether what happened at `ms` counts in the figures (--since).
    bool isInWindow(qint64 ms) const { return m_sinceMs < 0 || ms >= m_sinceMs; }
    // Whether the pass meets the resource numbered `resourceId` for the first time (a lock let
    // go while idle and met again is still one resource of its family).
    bool firstSight(qint64 resourceId);
    void track(Lock& lock, const RecordEvent& e);
    void fold(FamilySamples& family, const Episode& episode);
    void settle(Lock& lock, qint64 nowMs);
    // Free, with nothing to settle: only what times its next handover is kept (a million locks
    // taken in turn are a million of these at once). Only with compactFrom locks or more: a set of
    // fewer keeps each builder's room for its next tenure (letting it go and taking it again cost a
    // quarter of the pass over 50k locks). True when it was let go.
    bool compactIfIdle(Lock& lock) const;
    void compactEnded(qint64 nowMs);
    // Every so many events: settles what can no longer change, and forgets locks long idle.
    void evict(qint64 nowMs);

    QHash<qint64, RecordingSession> m_sessions;
    qint64 m_lastSession = -1;
    qint32 tenthsSinceFirst(qint64 ms) const;
    const RecordingSession& sessionOf(qint64 id) const;

    qint64 m_sinceMs = -1;
    Detail m_detail = Detail::Figures;
    qint64 m_firstMs = -1;
    qint64 m_lastMs = -1;
    std::unordered_map<LockKey, std::unique_ptr<Lock>, LockKeyHash> m_locks;
    QHash<QByteArray, int> m_familyIndex;
    std::deque<std::pair<qint64, Lock*>> m_ending; // (when, lock) of tenures that ended, oldest first
    std::vector<bool> m_seen;
    QHash<qint64, bool> m_seenElsewhere;
    std::vector<FamilySamples> m_families;
    qint64 m_sinceEviction = 0;
};

} // namespace lockscope
