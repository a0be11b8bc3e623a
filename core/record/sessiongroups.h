// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/resourcehistory.h"

#include <QHash>
#include <QList>

namespace lockscope {

// Recorders that watched the same masters at the same time (two `lockctl record`, a `serve
// --record` and a window, writing one file): their sessions are one watch, told twice (issue #45).
// Sessions of the same masters whose spans overlap, directly or through a third, form a group; a
// reader treats each group as one session, so that a holder seen by one recorder and let go as
// another saw it is one episode, not one lost when "its" session changed. A session alone is its
// own group, with its own id: a recording made by one recorder at a time reads as before.
class SessionGroups
{
public:
    SessionGroups() = default;
    explicit SessionGroups(const QList<RecordingSession>& sessions);

    // Whether any two sessions overlapped: without, every read goes as before.
    bool any() const { return m_any; }
    // The group of session `id` (the id of its first session); `id` itself when not known.
    qint64 groupOf(qint64 id) const { return m_groupOf.value(id, id); }
    // The groups as sessions, oldest first: from the first start to the last moment watched.
    const QList<RecordingSession>& merged() const { return m_merged; }
    // The span session `id` itself watched (not its group's).
    qint64 startedMsOf(qint64 id) const { return m_startedMs.value(id, -1); }
    qint64 lastMsOf(qint64 id) const { return m_lastMs.value(id, -1); }
    // The sessions of group `group`.
    QList<qint64> membersOf(qint64 group) const { return m_members.value(group); }
    // Session `id`'s own masters (an event's master is a number in its own session's list).
    QString masterName(qint64 session, int master) const;

private:
    bool m_any = false;
    QHash<qint64, qint64> m_groupOf;
    QHash<qint64, QStringList> m_masters;
    QHash<qint64, qint64> m_startedMs;
    QHash<qint64, qint64> m_lastMs;
    QHash<qint64, QList<qint64>> m_members;
    QList<RecordingSession> m_merged;
};

} // namespace lockscope
