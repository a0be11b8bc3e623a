#pragma once

#include "history/holderepisode.h"
#include "session/watchgap.h"

#include <QObject>
#include <QTimer>

namespace lockscope {

class HistoryDock;
class HistoryTracker;
struct ResourceHistory;

// What the History dock shows for a resource: the flight recording's episodes (what happened
// before this window opened, when a recorder was watching, with the gaps where nobody was), and what
// this window saw itself on top. The file is read on a pool thread, never on the GUI thread; the
// result comes back queued and only the latest request's result is shown.
class HistoryView final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryView)

public:
    HistoryView(HistoryTracker* tracker, HistoryDock* dock, QObject* parent = nullptr);

    // The recording to read; empty: only what this window saw.
    void setRecording(const QString& path);
    // Review of a recording: no live locks, so the dock lists the recorded resources to choose
    // from; `select` first when it is one of them.
    void review(const QString& path, const QByteArray& select);
    // Shows `resource` (the selected lock), reading its recorded story.
    void show(const QByteArray& resource);
    // This window saw `resource` change: shown at once, the recording read again shortly.
    void liveChanged(const QByteArray& resource);
    // What the timeline shows: the resource, and its episodes from the recording and this window.
    const QByteArray& resource() const { return m_resource; }
    QList<HolderEpisode> shown() const;

    // Episodes from the recording, converted (for the window's tests and the timeline).
    static QList<HolderEpisode> episodes(const ResourceHistory& history);

signals:
    // The timeline now shows `resource` with what the recording had (after each read).
    void loaded(const QByteArray& resource);

private:
    void load();
    void resourcesRead(const QList<QByteArray>& resources, const QByteArray& select);
    void historyRead(quint64 generation, const QByteArray& resource, const QList<HolderEpisode>& recorded,
                     const QList<RecordingSession>& sessions);
    void present();

    HistoryTracker* m_tracker;
    HistoryDock* m_dock;
    QString m_path;
    bool m_review = false;
    QByteArray m_resource;
    QList<HolderEpisode> m_recorded; // m_resource's, as last read
    QList<RecordingSession> m_sessions;
    quint64 m_generation = 0;
    QTimer m_reload;
    QTimer m_refresh; // the shown lock's recording, read again
};

} // namespace lockscope
