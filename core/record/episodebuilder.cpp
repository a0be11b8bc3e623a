// SPDX-License-Identifier: Apache-2.0
#include "record/episodebuilder.h"

#include <QHash>

#include <optional>

namespace lockscope {

QString episodeEndName(Episode::End end)
{
    switch (end) {
    case Episode::End::Open:
        return QStringLiteral("open");
    case Episode::End::Released:
        return QStringLiteral("released");
    case Episode::End::Expired:
        return QStringLiteral("expired");
    case Episode::End::ForceReleased:
        return QStringLiteral("force-released");
    case Episode::End::Replaced:
        return QStringLiteral("replaced");
    case Episode::End::Lost:
        return QStringLiteral("lost");
    }
    return QStringLiteral("open");
}

namespace {

using Kind = RecordEvent::Kind;

std::optional<Episode::End> endOf(Kind kind)
{
    switch (kind) {
    case Kind::Released:
        return Episode::End::Released;
    case Kind::Expired:
        return Episode::End::Expired;
    case Kind::Replaced:
        return Episode::End::Replaced;
    case Kind::Lost:
        return Episode::End::Lost;
    case Kind::ForceReleased:
        return Episode::End::ForceReleased;
    default:
        return std::nullopt;
    }
}

} // namespace

void EpisodeBuilder::add(const HistoryEvent& h, const RecordingSession& session)
{
    const RecordEvent& e = h.event;
    // A notification says what the window told the user, not who holds the lock.
    if (e.isMasterEvent() || e.kind == Kind::Notified)
        return;
    if (m_open && h.session != m_openSession) {
        // The recording stopped while it was held: the same holder seen again continues it.
        if ((e.kind == Kind::Seen || e.kind == Kind::Acquired) && e.token == m_open->token) {
            m_openSession = h.session;
            m_openSessionLastMs = session.lastMs;
            note(h, session);
            return;
        }
        close(Episode::End::Lost, m_openSessionLastMs);
    }
    if (e.kind == Kind::ForceReleased) {
        forceReleased(e);
        return;
    }
    if (const std::optional<Episode::End> end = endOf(e.kind)) {
        if (m_open && m_open->token == e.token)
            close(*end, e.timeMs);
        return;
    }
    if (m_open && m_open->token != e.token)
        close(Episode::End::Replaced, e.timeMs);
    const bool starts = e.kind == Kind::Seen || e.kind == Kind::Acquired;
    // The last masters letting go of an episode already ended (its release is dated when the
    // first master let go): not a new one.
    if (!m_open && !starts && !m_episodes.isEmpty() && m_episodes.last().token == e.token)
        return;
    if (!m_open) {
        // Seen or acquired; any other kind means its start was pruned: it begins where the record does.
        m_open = Episode();
        m_open->token = e.token;
        m_open->startMs = e.timeMs;
        m_openSession = h.session;
        m_openSessionLastMs = session.lastMs;
    }
    if (m_open->owner.isEmpty())
        m_open->owner = e.owner;
    if (e.kind == Kind::Extended)
        ++m_open->extensions;
    note(h, session);
}

QList<Episode> EpisodeBuilder::episodes() const
{
    if (!m_open)
        return m_episodes;
    QList<Episode> all = m_episodes;
    all << *m_open;
    return all;
}

void EpisodeBuilder::keepLatest(qsizetype count)
{
    const qsizetype excess = m_episodes.size() + (m_open ? 1 : 0) - count;
    if (excess > 0)
        m_episodes.remove(0, qMin(excess, m_episodes.size()));
}

QList<Episode> EpisodeBuilder::finish(qint64 lastSession)
{
    if (m_open && m_openSession != lastSession)
        close(Episode::End::Lost, m_openSessionLastMs);
    return episodes();
}

void EpisodeBuilder::note(const HistoryEvent& h, const RecordingSession& session)
{
    m_open->maxHolding = qMax(m_open->maxHolding, h.event.holding);
    const QStringList& names = session.masters;
    for (int i = 0; i < names.size() && i < 64; ++i)
        if ((h.event.holders & (quint64(1) << i)) && !m_open->masters.contains(names.at(i)))
            m_open->masters << names.at(i);
}

void EpisodeBuilder::close(Episode::End end, qint64 atMs)
{
    m_open->ended = end;
    m_open->endMs = qMax(atMs, m_open->startMs);
    m_episodes << *m_open;
    m_open.reset();
}

void EpisodeBuilder::forceReleased(const RecordEvent& e)
{
    const auto matches = [&](const Episode& episode) {
        return e.token.isEmpty() || e.token == episode.token;
    };
    if (m_open && matches(*m_open)) {
        m_open->auditId = e.auditId;
        close(Episode::End::ForceReleased, e.timeMs);
        return;
    }
    // Seen ended (released, replaced...) a moment before the audit record was read.
    for (qsizetype i = m_episodes.size() - 1; i >= 0; --i) {
        Episode& episode = m_episodes[i];
        if (e.timeMs - episode.endMs > forceReleaseWindowMs)
            break;
        if (matches(episode) && episode.ended != Episode::End::ForceReleased &&
            qAbs(e.timeMs - episode.endMs) <= forceReleaseWindowMs) {
            episode.ended = Episode::End::ForceReleased;
            episode.auditId = e.auditId;
            return;
        }
    }
}

QList<Episode> EpisodeBuilder::build(const QList<HistoryEvent>& events,
                                     const QList<RecordingSession>& sessions)
{
    QHash<qint64, RecordingSession> byId;
    for (const RecordingSession& s : sessions)
        byId.insert(s.id, s);
    // An event of a session the file no longer has (a damaged one) names no master.
    const RecordingSession unknown{};
    EpisodeBuilder builder;
    for (const HistoryEvent& e : events) {
        const auto session = byId.constFind(e.session);
        builder.add(e, session != byId.cend() ? *session : unknown);
    }
    return builder.finish(sessions.isEmpty() ? -1 : sessions.last().id);
}

} // namespace lockscope
