// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/resourcehistory.h"

#include <optional>

namespace lockscope {

// Folds one resource's events (oldest first) into episodes. The rules of how an episode ends live
// here, so the recording's reader, the window's live history (LiveHistory) and their tests share
// them. Incremental: events are added as they come and the episodes so far read at any time, so
// a history that is still being written (the window's own) is built by the same rules as one read
// back from a file.
//
// A force-release comes from the audit log, usually a moment before or after the deletion it
// caused is seen: it ends the open episode with its token, or turns the end of the episode that
// ended within forceReleaseWindowMs before it into a force-release.
//
// Two tokens held at once (a `contested` event: another token beside the one held) are two open
// episodes, each ended by its own events: they overlap, neither replaces the other. A new holder
// (`seen`, `acquired`) replaces the main one only; when the main one ends, the one held beside it
// (the oldest) goes on as the main one.
class EpisodeBuilder
{
public:
    static constexpr qint64 forceReleaseWindowMs = 10000;

    // The next event, of `session` (whose masters name the event's holders). An episode still open
    // when the next session's events begin without its holder ended where its session stopped.
    void add(const HistoryEvent& event, const RecordingSession& session);
    // The episodes so far, oldest first; the last one is open while its holder is.
    QList<Episode> episodes() const;
    // The main open episode (null when none).
    const Episode* open() const { return m_open.isEmpty() ? nullptr : &m_open.first(); }
    bool isEmpty() const { return m_episodes.isEmpty() && m_open.isEmpty(); }
    // Forgets the oldest episodes beyond `count` (a history kept in memory stays bounded).
    void keepLatest(qsizetype count);
    // Hands over, oldest first, the ended episodes a later force-release can no longer relabel:
    // those that ended more than forceReleaseWindowMs before `nowMs` (all of them with nowMs past
    // every end). A pass over a whole recording (LockStatsBuilder) keeps only what may still change.
    QList<Episode> takeSettled(qint64 nowMs);
    bool hasOpen() const { return !m_open.isEmpty(); }
    bool hasEnded() const { return !m_episodes.isEmpty(); }
    // The episodes of a recording whose last session is `lastSession`: one open in an earlier
    // session ended, unseen, when that session stopped.
    QList<Episode> finish(qint64 lastSession);

    // Every event of a recording at once (RecordingReader).
    static QList<Episode> build(const QList<HistoryEvent>& events, const QList<RecordingSession>& sessions);

private:
    void note(Episode& open, const HistoryEvent& h, const RecordingSession& session);
    // Ends the open episode at `index` (0: the main one; the next one held beside it follows on).
    void close(qsizetype index, Episode::End end, qint64 atMs);
    void closeAll(Episode::End end, qint64 atMs);
    qsizetype openIndexOf(const QByteArray& token) const;
    // Whether one of the last episodes to end was `token`'s.
    bool endedLately(const QByteArray& token) const;
    void forceReleased(const RecordEvent& e);

    QList<Episode> m_episodes; // ended, oldest first
    QList<Episode> m_open;     // the main one first, then those held beside it
    qint64 m_openSession = -1;
    qint64 m_openSessionLastMs = 0; // the last moment the open episode's session watched
};

} // namespace lockscope
