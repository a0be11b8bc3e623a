// SPDX-License-Identifier: Apache-2.0
#include "record/episodebuilder.h"

#include <QHash>

#include <algorithm>
#include <bit>

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
    // A notification says what the window told the user, a traced command what a client did: not
    // who holds the lock.
    if (e.isMasterEvent() || isEvidenceOnly(e.kind))
        return;
    const bool starts = e.kind == Kind::Seen || e.kind == Kind::Acquired || e.kind == Kind::Contested;
    if (!m_open.isEmpty() && h.session != m_openSession) {
        // The recording stopped while they were held: a holder seen again continues its episode;
        // the others ended, unseen, where that session stopped.
        const qsizetype continued = starts ? openIndexOf(e.token) : -1;
        for (qsizetype i = m_open.size() - 1; i >= 0; --i)
            if (i != continued)
                close(i, Episode::End::Lost, m_openSessionLastMs);
        if (!m_open.isEmpty()) {
            m_openSession = h.session;
            m_openSessionLastMs = session.lastMs;
            note(m_open.first(), h, session);
            return;
        }
    }
    if (e.kind == Kind::ForceReleased) {
        forceReleased(e);
        return;
    }
    qsizetype index = openIndexOf(e.token);
    if (const std::optional<Episode::End> end = endOf(e.kind)) {
        if (index >= 0)
            close(index, *end, e.timeMs);
        return;
    }
    // The last masters letting go of an episode already ended (its release is dated when the
    // first master let go): not a new one, nor a new holder in place of one held beside it (a
    // contested lock's other holder went on; CI's tst_uicontestedhistory saw it told "replaced").
    if (index < 0 && !starts && endedLately(e.token))
        return;
    // A new holder in place of the main one (not beside it): that one was replaced.
    if (index < 0 && e.kind != Kind::Contested && !m_open.isEmpty())
        close(0, Episode::End::Replaced, e.timeMs);
    if (index < 0) {
        // Seen, acquired or held beside; any other kind means its start was pruned: it begins where
        // the record does.
        Episode episode;
        episode.token = e.token;
        episode.startMs = e.timeMs;
        episode.startSeen = e.kind == Kind::Acquired || e.kind == Kind::Contested;
        if (m_open.isEmpty()) {
            m_openSession = h.session;
            m_openSessionLastMs = session.lastMs;
        }
        m_open << episode;
        index = m_open.size() - 1;
    }
    Episode& open = m_open[index];
    if (open.owner.isEmpty())
        open.owner = e.owner;
    if (e.kind == Kind::Extended)
        ++open.extensions;
    note(open, h, session);
}

QList<Episode> EpisodeBuilder::episodes() const
{
    // Oldest first by start: episodes held at once end in their own order.
    QList<Episode> all = m_episodes;
    all << m_open;
    std::stable_sort(all.begin(), all.end(),
                     [](const Episode& a, const Episode& b) { return a.startMs < b.startMs; });
    return all;
}

void EpisodeBuilder::keepLatest(qsizetype count)
{
    const qsizetype excess = m_episodes.size() + m_open.size() - count;
    if (excess > 0)
        m_episodes.remove(0, qMin(excess, m_episodes.size()));
}

QList<Episode> EpisodeBuilder::takeSettled(qint64 nowMs)
{
    // m_episodes is in the order they ended, each end at or after the one before it only per
    // token: look at every one rather than stop at the first unsettled.
    QList<Episode> settled;
    qsizetype kept = 0;
    for (qsizetype i = 0; i < m_episodes.size(); ++i) {
        if (nowMs - m_episodes.at(i).endMs > forceReleaseWindowMs)
            settled << std::move(m_episodes[i]);
        else if (kept++ != i)
            m_episodes[kept - 1] = std::move(m_episodes[i]);
    }
    m_episodes.resize(kept);
    return settled;
}

QList<Episode> EpisodeBuilder::finish(qint64 lastSession)
{
    if (!m_open.isEmpty() && m_openSession != lastSession)
        closeAll(Episode::End::Lost, m_openSessionLastMs);
    return episodes();
}

void EpisodeBuilder::note(Episode& open, const HistoryEvent& h, const RecordingSession& session)
{
    open.maxHolding = qMax(open.maxHolding, h.event.holding);
    const QStringList& names = session.masters;
    const int named = int(qMin<qsizetype>(names.size(), 64));
    const quint64 every = named == 64 ? ~quint64(0) : (quint64(1) << named) - 1;
    const quint64 held = h.event.holders & every;
    // First seen on every master the session watched (a Redlock's usual start): the session's own
    // list, shared. A list of its own per episode was most of what a window kept of every lock's
    // history with recording off (100k locks on five masters: 23 of 51 MB).
    if (open.masters.isEmpty() && held == every && named == names.size() && named > 0) {
        open.masters = names;
        return;
    }
    if (open.masters.isEmpty())
        open.masters.reserve(std::popcount(held));
    for (int i = 0; i < named; ++i)
        if ((held & (quint64(1) << i)) && !open.masters.contains(names.at(i)))
            open.masters << names.at(i);
}

bool EpisodeBuilder::endedLately(const QByteArray& token) const
{
    // Not only the last to end: two holders at once end interleaved, and the one whose release is
    // dated first may have its last master's letting go told after the other's release (CI's
    // sanitizer pass of tst_uicontestedhistory: a phantom episode, open for good).
    for (qsizetype i = m_episodes.size() - 1; i >= 0 && i >= m_episodes.size() - 16; --i)
        if (m_episodes.at(i).token == token)
            return true;
    return false;
}

qsizetype EpisodeBuilder::openIndexOf(const QByteArray& token) const
{
    for (qsizetype i = 0; i < m_open.size(); ++i)
        if (m_open.at(i).token == token)
            return i;
    return -1;
}

void EpisodeBuilder::close(qsizetype index, Episode::End end, qint64 atMs)
{
    Episode episode = m_open.takeAt(index);
    episode.ended = end;
    episode.endMs = qMax(atMs, episode.startMs);
    m_episodes << episode;
}

void EpisodeBuilder::closeAll(Episode::End end, qint64 atMs)
{
    while (!m_open.isEmpty())
        close(m_open.size() - 1, end, atMs);
}

void EpisodeBuilder::forceReleased(const RecordEvent& e)
{
    const auto matches = [&](const Episode& episode) {
        return e.token.isEmpty() || e.token == episode.token;
    };
    bool closed = false;
    for (qsizetype i = m_open.size() - 1; i >= 0; --i)
        if (matches(m_open.at(i))) {
            m_open[i].auditId = e.auditId;
            close(i, Episode::End::ForceReleased, e.timeMs);
            closed = true;
        }
    if (closed)
        return;
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
