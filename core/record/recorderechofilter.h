// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/resourcehistory.h"
#include "record/sessiongroups.h"

#include <QHash>
#include <QList>

namespace lockscope {

// Drops what another recorder of the same watch wrote again (SessionGroups): an event of one
// session is the echo of an event of another session of its group with the same resource, kind,
// token, master (by name) and audit record, within echoWindowMs; an event let through is echoed at
// most once by each other session, so two extensions a moment apart seen by both recorders stay
// two, and one seen by three recorders is one. What only one recorder
// saw (it started earlier, or it polled a state the other missed) is kept: the story is the union
// of what they saw, each change once. A recorder joining late adds nothing the watch knew
// (joinedLate).
class RecorderEchoFilter
{
public:
    // Two recorders see a change through its keyspace notification within milliseconds; by polling,
    // within their poll intervals (2 s by default).
    static constexpr qint64 echoWindowMs = 5000;

    explicit RecorderEchoFilter(const SessionGroups* groups) : m_groups(groups) {}

    // True when `h` (of its raw session) repeats an event already let through.
    bool isEcho(const HistoryEvent& h);

private:
    struct Seen
    {
        qint64 timeMs;
        qint64 session;
        QList<qint64> echoedBy; // the other sessions that told it again (one or two, usually)
    };
    struct Key
    {
        QByteArray resource;
        int kind;
        QByteArray token;
        QString master;
        QString audit;
        bool operator==(const Key& o) const = default;
    };
    friend size_t qHash(const Key& k, size_t seed) noexcept
    {
        return qHashMulti(seed, k.resource, k.kind, k.token, k.master, k.audit);
    }
    // What a recorder that joined a watch (or left it) tells that the watch knew: its `seen` of the
    // holder the watch saw take the lock, its connection's up or down while another recorder's
    // stayed up.
    bool joinedLate(const HistoryEvent& h, qint64 group);
    // Forgets what is older than the window before the latest event (every so many events).
    void sweep();

    const SessionGroups* m_groups;
    QHash<Key, QList<Seen>> m_unmatched; // let through within the window, by what they were
    // The latest holder of each resource in its watch: hashes, not names (a million locks).
    QHash<size_t, size_t> m_holder;
    // Per watch and master: whether each recorder saw it up, as its latest event said.
    QHash<QPair<qint64, QString>, QHash<qint64, bool>> m_up;
    qint64 m_latestMs = 0;
    qint64 m_sinceSweep = 0;
};

} // namespace lockscope
