// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/recordedstory.h"

#include <optional>

namespace lockscope {

namespace {

bool carriesTtl(RecordEvent::Kind kind)
{
    return kind == RecordEvent::Kind::Seen || kind == RecordEvent::Kind::Acquired ||
           kind == RecordEvent::Kind::Extended;
}

// The later of two readings; on a tie, `b` (the live one when merging).
std::optional<TtlReading> later(const std::optional<TtlReading>& a, const std::optional<TtlReading>& b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return a->atMs > b->atMs ? a : b;
}

} // namespace

LockStory RecordedStory::fromHistory(const ResourceHistory& history)
{
    if (history.episodes.isEmpty() || history.episodes.constLast().ended != Episode::End::Open)
        return {};
    const Episode& episode = history.episodes.constLast();
    LockStory story;
    story.token = episode.token;
    story.firstSeenMs = episode.startMs;
    story.extensions = episode.extensions;
    for (const HistoryEvent& h : history.events) {
        const RecordEvent& e = h.event;
        if (e.isMasterEvent() || e.token != episode.token || e.timeMs < episode.startMs ||
            !carriesTtl(e.kind))
            continue;
        if (e.kind == RecordEvent::Kind::Extended) {
            if (story.firstExtensionMs < 0)
                story.firstExtensionMs = e.timeMs;
            story.lastExtensionMs = e.timeMs;
            story.lastExtensionTtlMs = e.ttlMs;
        }
        if (e.ttlMs >= 0) {
            story.leaseMs = qMax(story.leaseMs, e.ttlMs);
            story.lastReading = later(story.lastReading, TtlReading{e.timeMs, e.ttlMs});
        }
    }
    return story;
}

LockStory RecordedStory::merge(const LockStory& recorded, const LockStory& live)
{
    if (!recorded.isKnown() || (live.isKnown() && live.token != recorded.token))
        return live;
    if (!live.isKnown())
        return recorded;
    LockStory out = live;
    out.firstSeenMs = qMin(recorded.firstSeenMs, live.firstSeenMs);
    const bool liveIsNewer = live.firstExtensionMs > recorded.lastExtensionMs;
    out.extensions =
        liveIsNewer ? recorded.extensions + live.extensions : qMax(recorded.extensions, live.extensions);
    if (recorded.firstExtensionMs >= 0 &&
        (out.firstExtensionMs < 0 || recorded.firstExtensionMs < out.firstExtensionMs))
        out.firstExtensionMs = recorded.firstExtensionMs;
    if (recorded.lastExtensionMs > out.lastExtensionMs) {
        out.lastExtensionMs = recorded.lastExtensionMs;
        out.lastExtensionTtlMs = recorded.lastExtensionTtlMs;
    }
    out.leaseMs = qMax(recorded.leaseMs, live.leaseMs);
    out.lastReading = later(recorded.lastReading, live.lastReading);
    return out;
}

qint64 RecordedStory::watchedUntilMs(const ResourceHistory& history)
{
    qint64 until = -1;
    for (const RecordingSession& s : history.sessions)
        until = qMax(until, qMax(s.lastMs, s.endedMs));
    return until;
}

QList<Diagnosis> RecordedStory::diagnose(const ResourceHistory& history, const DiagnosisContext& context)
{
    const LockStory story = fromHistory(history);
    if (!story.isKnown())
        return {};
    DiagnosisContext asOf = context;
    const qint64 watched = watchedUntilMs(history);
    if (watched >= story.firstSeenMs)
        asOf.nowMs = qMin(context.nowMs, watched);
    const QString owner = history.episodes.constLast().owner;
    if (!story.lastReading)
        return LockDiagnosis::diagnoseStory(story, owner, -1, asOf);
    const TtlReading& last = *story.lastReading;
    const qint64 ttlNow = qMax<qint64>(0, last.ttlMs - (asOf.nowMs - last.atMs));
    return LockDiagnosis::diagnoseStory(story, owner, ttlNow, asOf);
}

} // namespace lockscope
