// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "record/recordingdatabase.h"
#include "record/resourcehistory.h"
#include "record/sessiongroups.h"

#include <QHash>

class QSqlQuery;

#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace lockscope {

// Reads a recording: a resource's episodes and events, the resources recorded, the sessions (and
// so the gaps where nobody watched). For `lockctl history`, the window's History view and the
// stuck-lock diagnosis. Opens its own connection (on the calling thread), so it can read while a
// recorder writes the same file (WAL: readers never wait for the writer).
class RecordingReader
{
public:
    RecordingReader();
    ~RecordingReader();

    // Reads are bounded: a recording may come from elsewhere. The newest this many sessions, a
    // resource's newest this many events (and as many of the masters'), this many resources, and
    // this many bytes of text and tokens in each read.
    static constexpr int maxSessions = 100000;
    static constexpr int maxEvents = 1000000;
    static constexpr int maxResources = 5000000;
    static constexpr qint64 maxBytes = 512LL * 1024 * 1024;

    // The file must exist; it is opened read-only and never written to: an older schema is read
    // through an upgraded copy in memory, a newer or damaged one refused (RecordingDatabase).
    // A postgresql:// URL reads a team's database (`password`, or libpq's own) the same way.
    RedisError open(const QString& path, const QString& password = {});

    // Episodes that were open at or after `sinceMs` (wall clock; -1: all), oldest first, with the
    // resource's events and the masters' events from the first episode's start on. Only what was
    // recorded from `masters` (by name, in any order); with none named, from the masters of the
    // resource's latest event. The other sets it was recorded from are named in the result.
    // `latestId`: the id of the resource's latest event in a file, where the caller knows it (a live
    // reader, from the commits it follows; one of another writer of the same file since is not
    // read): the story is read back from there, not from the newest of the resource's events in
    // the whole tail written since the resources' latest were last stored, which a first pass over
    // 100k locks fills within one such period (a read scanned it all). -1: not known.
    Result<ResourceHistory> history(const QByteArray& resource, qint64 sinceMs = -1,
                                    const QStringList& masters = {}, qint64 latestId = -1);
    // Every event of the recording in the order it was recorded (resource events with their
    // resource's name), one at a time, until `visit` returns false: a pass over a whole recording
    // that holds no more of it than the caller keeps. Text is escaped as in history(); an event of a
    // kind this version does not know is skipped.
    RedisError forEachEvent(const std::function<bool(const HistoryEvent&)>& visit);
    // Every event as it is stored, each in its own recorder's session (two recorders' tellings of
    // one change both kept, a replacement as the new holder's start alone): what a copy copies.
    RedisError forEachStoredEvent(const std::function<bool(const HistoryEvent&)>& visit);
    // Every resource with at least one event, sorted.
    Result<QList<QByteArray>> resources();
    // The sessions as readers see them: those of recorders that watched the same masters at the
    // same time merged into one (SessionGroups), as their events are (RecorderEchoFilter).
    Result<QList<RecordingSession>> sessions();
    // Each recorder's own session, as written.
    Result<QList<RecordingSession>> recorderSessions();

private:
    Result<SessionGroups> sessionGroups();
    // forEachEvent's passes: SQLite's own API on a file, pages of rows on a team database.
    RedisError forEachFileEvent(const std::function<bool(HistoryEvent&)>& visit);
    RedisError forEachTeamEvent(const std::function<bool(HistoryEvent&)>& visit);
    // Every resource's name by its number, bounded as resources() is.
    Result<QHash<qint64, QByteArray>> resourceNames();
    // Columns 0 to 11 of events() (id, session, t, master, kind, token, owner, ttl, holding,
    // holders, detail, audit) into `h`: false for a kind this version does not know.
    static bool fromRow(const QSqlQuery& q, HistoryEvent& h);
    // Two recorders of one watch: drops the second telling of each change and names each event's
    // session by its group.
    static void reconcile(QList<HistoryEvent>& events, const SessionGroups& groups);
    // The recorder stores a replacement as the new holder's `acquired` alone: the `replaced` event
    // of the holder before it is put back here, just before. Names each event's resource.
    static void restoreReplacements(QList<HistoryEvent>& events, const QByteArray& resource);
    // Keeps of `own` (and of history.sessions) what `masters` recorded (none named: the set of the
    // latest event), and names the other sets in `history`.
    static void keepOneMasterSet(ResourceHistory& history, QList<HistoryEvent>& own,
                                 const QStringList& masters);
    Result<QList<HistoryEvent>> events(const QString& where, const QVariantList& values,
                                       const QList<RecordingSession>& sessions);
    // `sql` run with `values`, each text prepared once and kept: the live incident watch reads a
    // story per suspect lock, and preparing its statements (the recursive chain among them) every
    // time was most of each read. A query that fails is dropped (prepared afresh next time). The
    // caller finishes the query when done, so that no read holds the file's snapshot. `failure`
    // begins the error's message.
    Result<QSqlQuery*> run(const QString& sql, const QVariantList& values, const QString& failure);

    std::unique_ptr<RecordingDatabase> m_db;
    std::vector<std::pair<QString, std::unique_ptr<QSqlQuery>>> m_prepared; // before m_db goes
};

} // namespace lockscope
