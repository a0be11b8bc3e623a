// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace lockscope {

// One stretch of recording: one `lockctl record` run or one window session. Between two sessions
// nobody watched (the History view's gaps).
struct RecordingSession
{
    qint64 id = 0;
    qint64 startedMs = 0; // wall clock, ms since the epoch
    qint64 lastMs = 0;    // the last moment it is known to have been watching
    qint64 endedMs = -1;  // -1: it did not end cleanly (killed) or is still recording
    QStringList masters;  // master i of its events, by redacted URL
    // Who recorded it: user@host/program:pid (empty in files from before version 7); for recorders
    // that watched at once, merged into one session (SessionGroups), each of them.
    QStringList recorders;
};

// A recorded event as read back: with the session it belongs to and its master's name.
struct HistoryEvent
{
    qint64 id = 0;
    qint64 session = 0;
    RecordEvent event;
    QString masterName;     // event.master's name in its session; empty for a resource-wide event
    qint64 resourceId = -1; // the file's number for event.resource (RecordingReader::forEachEvent)
};

// One holder's tenure of a resource: from first seen (or taken) to how it ended.
struct Episode
{
    enum class End
    {
        Open,          // still held when the recording ends
        Released,      // deleted before its expiry
        Expired,       // its TTL ran out
        ForceReleased, // deleted by an administrator's force-release (auditId names the record)
        Replaced,      // another token took its place without a gap
        Lost,          // gone before expiry after a master restart or failover, or the recording
                       // stopped while it was held and it was gone when recording resumed
    };

    QByteArray token;
    QString owner;
    qint64 startMs = 0;
    qint64 endMs = -1;      // -1 while open
    bool startSeen = false; // seen being taken (startMs is when), not found already held
    End ended = End::Open;
    int extensions = 0;
    int maxHolding = 0;  // the most masters that held it at once
    QStringList masters; // every master that held it, in the order they were first seen holding it
    QString auditId;     // ForceReleased: the audit record's id
};

// "open", "released", "expired", "force-released", "replaced", "lost".
QString episodeEndName(Episode::End end);

// What the recording knows of one resource, oldest first.
struct ResourceHistory
{
    QByteArray resource;
    QList<Episode> episodes;
    QList<HistoryEvent> events;       // the resource's own and the masters' events while it was recorded
    QList<RecordingSession> sessions; // those that watched these masters
    // The masters this story comes from. One recording may hold several sets of masters (two
    // profiles, staging and production) with a resource of the same name: their stories are kept
    // apart, and these are the sets it was also recorded from.
    QStringList masters;
    QList<QStringList> otherMasterSets;
};

// Whether `a` and `b` name the same masters, in any order.
bool sameMasters(const QStringList& a, const QStringList& b);

} // namespace lockscope
