// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/resourcehistory.h"
#include "session/watchgap.h"

#include <QByteArrayList>
#include <QObject>
#include <QSet>
#include <QTimer>

namespace lockscope {

class HistoryDock;
class LiveHistory;

// What the History dock shows for a resource: the flight recording's episodes (what happened
// before this window opened, when a recorder was watching, with the gaps where nobody was), and
// the episodes this window saw itself (LiveHistory) that the recording does not have (yet): one
// kind of episode, the recorder's, from both. The file is read on a pool thread, never on the GUI
// thread; the result comes back queued and only the latest request's result is shown.
class HistoryView final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryView)

public:
    HistoryView(LiveHistory* live, HistoryDock* dock, QObject* parent = nullptr);

    // The recording to read (a file, or a team database's URL with its password); empty: only what
    // this window saw.
    void setRecording(const QString& path, const QString& password = {});
    // The masters this window watches: the recording's story of theirs alone (a recording may hold
    // other sets, with locks of the same names).
    void setMasters(const QStringList& masters);
    // Review of a recording: no live locks, so the dock lists the recorded resources to choose
    // from; `select` first when it is one of them.
    void review(const QString& path, const QByteArray& select, const QString& password = {});
    // A team database told what was committed to it (WindowRecording::teamCommitted): the shown
    // story is read again when it changed, the reviewed list when a resource is new. From then on
    // nothing is read again on a timer: the database says when.
    void recordingCommitted(const QByteArrayList& resources, bool masterEvents, bool all);
    bool isToldOfCommits() const { return m_told; }
    // Shows `resource`'s story in review (an incident chosen in the Incidents dock), also while
    // the file's list of locks is still being read.
    void choose(const QByteArray& resource);
    // Shows `resource` (the selected lock), reading its recorded story.
    void show(const QByteArray& resource);
    // This window saw `resource` change: shown at once, the recording read again shortly.
    void liveChanged(const QByteArray& resource);
    // What the timeline shows: the resource, and its episodes from the recording and this window.
    const QByteArray& resource() const { return m_resource; }
    QList<Episode> shown() const;
    // What the dock's export saves: the shown episodes as `lockctl history --json` prints a
    // history (with the recording's events, and what the recording says of the open episode), or
    // as CSV.
    QByteArray exported(bool json) const;

signals:
    // The timeline now shows `resource` with what the recording had (after each read).
    void loaded(const QByteArray& resource);

private:
    void load();
    void readResources();
    void resourcesRead(const QList<QByteArray>& resources, const QByteArray& select);
    void historyRead(quint64 generation, const ResourceHistory& recorded);
    void present();

    LiveHistory* m_live;
    HistoryDock* m_dock;
    QString m_path;
    QString m_password;
    QStringList m_masters;
    bool m_review = false;
    bool m_told = false;       // the database tells of each commit: no reading on a timer
    QSet<QByteArray> m_listed; // the reviewed list's resources
    QByteArray m_resource;
    QByteArray m_select;        // review()'s: shown first when the list comes
    QByteArray m_chosen;        // chosen by choose(): it wins over the first lock when the list comes
    ResourceHistory m_recorded; // m_resource's in the recording, as last read (its sessions even without it)
    quint64 m_generation = 0;
    QTimer m_reload;
    QTimer m_refresh; // the shown lock's recording, read again
};

} // namespace lockscope
