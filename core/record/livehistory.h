// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"
#include "record/episodebuilder.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>

namespace lockscope {

// The episodes of the locks a monitor shows, as they happen: the flight recorder's episodes
// (Episode, folded by EpisodeBuilder under the same rules) for what no recording has yet, so a
// History view can show a lock's holders without a recording file (recording off), or ahead of
// what the recorder has committed. Fed the monitor's batches, on whichever thread applies them.
//
// Each view only says who holds the lock now, so the way the last holder went is judged from what
// was known just before: validity about to run out (expired), a restarted master (lost), a
// force-release made here (markForceReleased), another token while still valid (replaced).
//
// While a recording keeps every lock's history, only the followed lock (the one a view shows) is
// kept here: a history per lock beside the recording was a sixth of the window's memory at 1M
// locks. Without one, every lock's is kept, at most maxEpisodesPerResource each.
class LiveHistory final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LiveHistory)

public:
    explicit LiveHistory(QObject* parent = nullptr);

    static constexpr int maxEpisodesPerResource = 200;

    // The batch as applied at `nowMs` (wall clock, ms since the epoch).
    void observe(const LockBatch& batch, qint64 nowMs = QDateTime::currentMSecsSinceEpoch());
    // Room for `resources` histories without growing (a table that doubles rehashes all it holds
    // at once); none is needed while recorded.
    void reserve(qsizetype resources)
    {
        if (!m_recorded)
            m_history.reserve(resources);
    }
    // The monitor's masters in order: they name the masters that held each episode.
    void setMasters(const QStringList& names) { m_session.masters = names; }
    // Whether a recording keeps every lock's history: then only the followed lock's is kept here
    // (from now on), otherwise every lock's (from now on).
    void setRecorded(bool recorded);
    bool isRecorded() const { return m_recorded; }
    // The lock a view shows.
    void follow(const QByteArray& resource);
    // The next end of this resource's episode was our doing (the window's own force-release: no
    // audit follower is needed to tell it).
    void markForceReleased(const QByteArray& resource);

    // Oldest first; the last one is open while its holder is.
    QList<Episode> episodes(const QByteArray& resource) const;
    // Since when this history watched (its creation).
    qint64 openedAtMs() const { return m_session.startedMs; }

signals:
    void changed(const QByteArray& resource);

private:
    struct Kept
    {
        EpisodeBuilder episodes;
        qint64 deadlineMs = -1; // monotonic expiry of the open episode's holder; -1 unknown
        quint64 holders = 0;    // bit i: master i holds the open episode's token
        bool atRisk = false;
    };
    void see(const LockView& view, qint64 nowMs);
    // Ends the open episode of `resource` (gone, or `replaced` by another token) as judged now.
    void end(const QByteArray& resource, Kept& kept, bool replaced, qint64 nowMs);
    void add(Kept& kept, RecordEvent event);
    bool keeps(const QByteArray& resource) const { return !m_recorded || resource == m_followed; }

    QHash<QByteArray, Kept> m_history;
    QSet<QByteArray> m_forceReleased;
    // The one session these events belong to: this history's own watch.
    RecordingSession m_session;
    bool m_recorded = false;
    QByteArray m_followed;
};

} // namespace lockscope
