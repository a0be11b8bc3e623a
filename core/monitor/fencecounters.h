// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/patternscope.h"
#include "formats/keyobservation.h"

#include <QByteArray>
#include <QHash>
#include <QList>

#include <optional>

namespace lockscope {

// The fencing counters a monitor meets: Redisson's fenced-lock counters (redisson_lock_token:{name},
// known by name) and the keys under "fencing" patterns. Each is read like any key, never shown as a
// lock; what the recorder keeps of it is each value it read that differs from the last one read on
// that master. The detector (FenceWatch) tells one that went down.
class FenceCounters
{
public:
    struct Read
    {
        QByteArray resource; // the lock it fences (Redisson), or the counter itself
        qint64 value = 0;
    };

    // Past this many counters the values known are forgotten (each is then told once more).
    static constexpr qsizetype maxCounters = 100000;

    explicit FenceCounters(const PatternScope* scope) : m_scope(scope) {}

    // Whether `key` is a fencing counter (asked of a key that is no lock being followed).
    bool isCounter(const QByteArray& key) const;
    // What `key` read on `master` (of `masters`) says, when it is news: its first value there, or
    // another one. A value that is no integer says nothing.
    std::optional<Read> observe(int master, int masters, const QByteArray& key, const KeyObservation& o);
    // `master` restarted or changed hands: whatever it shows next is news, even a value read before
    // (a counter that came back at a value it had already given out gave it out twice).
    void forgetMaster(int master);

private:
    const PatternScope* m_scope;
    QHash<QByteArray, QList<qint64>> m_last; // per master; -1: none read
};

} // namespace lockscope
