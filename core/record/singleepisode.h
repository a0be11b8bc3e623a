// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/episodebuilder.h"

namespace lockscope {

// A lock's history while it is one episode: seen held, by one token, its owner and the masters
// holding it the only things told since. A window with recording off keeps a history per lock, and
// nearly all of them are this. As an EpisodeBuilder (its open episode in a block of its own, the
// masters' names in another) the window's histories took 510 bytes a lock (100k locks on five
// masters), and at a million locks its peak went past its budget (1,295 MiB, ui-bench --million);
// with this in the builder's place, 180 bytes and 1,133 to 1,150 MiB.
// It takes the events EpisodeBuilder would (Seen, then Holders) and gives the same Episode; at any
// other event its owner replays it into a builder and goes on there.
class SingleEpisode final
{
public:
    // Whether it holds an episode.
    bool isSet() const { return m_startMs >= 0; }
    // Whether `event` can be taken here: the first Seen, a Holders of the same token after it, with
    // at most maxMasters masters holding it in all.
    bool takes(const RecordEvent& event) const;
    // Takes an event takes() accepts.
    void add(const RecordEvent& event);

    const QByteArray& token() const { return m_token; }
    const QString& owner() const { return m_owner; }
    // The episode, its masters named as in `masters` (the session's).
    Episode episode(const QStringList& masters) const;
    // Hands the episode to `builder` as the events of `resource` that made it, and forgets it.
    void moveInto(EpisodeBuilder& builder, const QByteArray& resource, const RecordingSession& session);

    static constexpr int maxMasters = 8;

private:
    static constexpr quint8 noMaster = 0xFF;
    quint8 masterAt(int i) const { return quint8(m_order >> (8 * i)); }
    int masterCount() const;
    // The masters of `holders` not yet in the order, in index order (as EpisodeBuilder adds them).
    int newMasters(quint64 holders, quint8* out) const;

    QByteArray m_token;
    QString m_owner; // the first owner told
    qint64 m_startMs = -1;
    // The masters in the order first seen holding it: a byte each, noMaster after the last.
    quint64 m_order = ~quint64(0);
    int m_maxHolding = 0;
};

static_assert(sizeof(void*) != 8 || sizeof(SingleEpisode) == 72);

} // namespace lockscope
