// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"
#include "record/episodebuilder.h"
#include "record/singleepisode.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>

#include <deque>
#include <memory>
#include <utility>

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
// locks. Without one, every lock's is kept, at most maxEpisodesPerResource each, and of the locks
// that are gone, the maxGoneResources that went last: locks named after what they guard (an order,
// a user) come and go by the million over a day, and each one's history was kept for good.
class LiveHistory final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LiveHistory)

public:
    explicit LiveHistory(QObject* parent = nullptr);

    static constexpr int maxEpisodesPerResource = 200;
    static constexpr qsizetype maxGoneResources = 50'000;

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
    // Resources with a history kept (held now, or gone and not yet forgotten).
    qsizetype size() const { return m_history.size(); }
    // Places in the queue of gone locks, the passed-over ones included (tests: it stays bounded).
    qsizetype goneQueued() const { return qsizetype(m_gone.size()); }
    // Since when this history watched (its creation).
    qint64 openedAtMs() const { return m_session.startedMs; }

signals:
    void changed(const QByteArray& resource);

private:
    struct Kept
    {
        // Every episode, once there is more than the one `single` keeps while it can (most locks);
        // shared by copies (a table being rebuilt), never by two locks.
        std::shared_ptr<EpisodeBuilder> built;
        SingleEpisode single;
        qint64 deadlineMs = -1; // monotonic expiry of the open episode's holder; -1 unknown
        quint64 holders = 0;    // bit i: master i holds the open episode's token
        bool atRisk = false;
        quint32 goneAt = 0; // its place in m_gone while it is gone; 0 while held
    };
    void see(const LockView& view, qint64 nowMs);
    // Ends the open episode of `resource` (gone, or `replaced` by another token) as judged now.
    void end(const QByteArray& resource, Kept& kept, bool replaced, qint64 nowMs);
    void add(Kept& kept, RecordEvent event);
    // The open (main) episode's token and owner; null, empty: none open.
    static const QByteArray* openToken(const Kept& kept);
    static const QString& openOwner(const Kept& kept);
    static bool isEmpty(const Kept& kept)
    {
        return kept.built ? kept.built->isEmpty() : !kept.single.isSet();
    }
    bool keeps(const QByteArray& resource) const { return !m_recorded || resource == m_followed; }
    // The lock went from every master: its history is forgotten once maxGoneResources went after it.
    void noteGone(const HashedKey& key, Kept& kept);
    void forgetGone();

    // By the name's hash as the monitor computed it: a table of a million names grows (and the
    // window reserves it as the locks are counted) without hashing them all again, on the GUI thread.
    QHash<HashedKey, Kept> m_history;
    QSet<QByteArray> m_forceReleased;
    // The locks that went, oldest first, each with its place (Kept::goneAt): one that came back
    // and went again has a newer place, and its older one is passed over.
    std::deque<std::pair<HashedKey, quint32>> m_gone;
    quint32 m_lastGoneAt = 0;
    qsizetype m_goneCount = 0; // entries in m_history that are gone
    // The one session these events belong to: this history's own watch.
    RecordingSession m_session;
    bool m_recorded = false;
    QByteArray m_followed;
};

} // namespace lockscope
