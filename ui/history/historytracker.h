#pragma once

#include "history/holderepisode.h"
#include "monitor/lockview.h"
#include "session/resourcekey.h"

#include <QHash>
#include <QObject>
#include <QSet>

namespace lockscope {

// The holders of every resource since the window opened, built from the same batches as the
// table: a new token opens an episode, and the way the old one ended is judged from what was
// known just before (validity left, a restarted master, our own force-release).
//
// While the window records (its default), the recording has every lock's history and the History
// view reads it: only the lock the view shows is followed here, for what the recording has not
// committed yet. A history per lock here too was a sixth of the window's memory at 1M locks.
class HistoryTracker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryTracker)

public:
    static constexpr int maxEpisodesPerResource = 200;
    // A lock that disappears with less validity left than this expired rather than was released:
    // the monitor sees expiries up to a poll later than they happen.
    static constexpr qint64 expiryToleranceMs = 1500;

    explicit HistoryTracker(QObject* parent = nullptr);

    void observe(const LockBatch& batch, const QDateTime& now = QDateTime::currentDateTime());
    // Room for `resources` histories without growing (CoreService::locksForeseen); none is needed
    // while recorded.
    void reserve(qsizetype resources)
    {
        if (!m_recorded)
            m_history.reserve(resources);
    }
    // Whether a recording keeps every lock's history: then only the followed lock's is kept here
    // (from now on), otherwise every lock's (from now on).
    void setRecorded(bool recorded);
    bool isRecorded() const { return m_recorded; }
    // The lock the History view shows.
    void follow(const QByteArray& resource);
    // The next end of this resource's episode was our doing.
    void markForceReleased(const QByteArray& resource);

    QList<HolderEpisode> episodes(const QByteArray& resource) const;
    const QDateTime& openedAt() const { return m_openedAt; }

    static QByteArray toCsv(const QByteArray& resource, const QList<HolderEpisode>& episodes);
    static QByteArray toJson(const QByteArray& resource, const QList<HolderEpisode>& episodes);

signals:
    void changed(const QByteArray& resource);

private:
    // A resource's episodes: the ended ones in a list, the one still going on in place. Most locks
    // have only that one, and a list of one episode was a heap block per lock (its token and owner
    // share the view's bytes).
    struct History
    {
        QList<HolderEpisode> ended; // oldest first
        QByteArray token;           // the open episode's, while `open`
        QString owner;
        QDateTime from;
        qint64 deadlineMs = -1; // monotonic expiry of the open episode; -1 unknown
        bool open = false;
        bool atRisk = false;
    };
    void close(History& h, HolderEpisode::End end, const QDateTime& now);
    HolderEpisode::End endOf(const QByteArray& resource, const History& h, bool replaced) const;
    void see(const LockView& view, const QDateTime& now);
    bool keeps(const QByteArray& resource) const { return !m_recorded || resource == m_followed; }

    QHash<ResourceKey, History> m_history;
    QSet<QByteArray> m_forceReleased;
    QDateTime m_openedAt = QDateTime::currentDateTime();
    bool m_recorded = false;
    QByteArray m_followed;
};

} // namespace lockscope
