// SPDX-License-Identifier: Apache-2.0
#include "record/sessiongroups.h"

#include <algorithm>
#include <numeric>

namespace lockscope {

namespace {

QStringList sorted(QStringList masters)
{
    masters.sort();
    return masters;
}

} // namespace

SessionGroups::SessionGroups(const QList<RecordingSession>& sessions)
{
    // By start: a session joins the open group of its masters when it began before that group's
    // last moment watched.
    QList<RecordingSession> byStart = sessions;
    std::stable_sort(
        byStart.begin(), byStart.end(),
        [](const RecordingSession& a, const RecordingSession& b) { return a.startedMs < b.startedMs; });
    QHash<QStringList, qsizetype> openGroup; // masters (sorted) -> index in m_merged
    for (const RecordingSession& s : std::as_const(byStart)) {
        m_masters.insert(s.id, s.masters);
        m_startedMs.insert(s.id, s.startedMs);
        m_lastMs.insert(s.id, s.lastMs);
        const QStringList key = sorted(s.masters);
        const auto open = openGroup.constFind(key);
        if (open != openGroup.cend() && s.startedMs <= m_merged.at(*open).lastMs) {
            RecordingSession& group = m_merged[*open];
            m_groupOf.insert(s.id, group.id);
            m_members[group.id] << s.id;
            // Still recording (or killed) when its longest-watching member is.
            if (s.lastMs >= group.lastMs)
                group.endedMs = s.endedMs;
            group.lastMs = qMax(group.lastMs, s.lastMs);
            group.recorders += s.recorders;
            m_any = true;
            continue;
        }
        m_groupOf.insert(s.id, s.id);
        m_members[s.id] << s.id;
        openGroup.insert(key, m_merged.size());
        m_merged << s;
    }
    // Oldest first by id, as sessions() lists them.
    std::stable_sort(m_merged.begin(), m_merged.end(),
                     [](const RecordingSession& a, const RecordingSession& b) { return a.id < b.id; });
}

QString SessionGroups::masterName(qint64 session, int master) const
{
    return master < 0 ? QString() : m_masters.value(session).value(master);
}

} // namespace lockscope
