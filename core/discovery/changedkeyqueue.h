// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "discovery/scankeytable.h"

#include <QByteArrayList>

#include <deque>

namespace lockscope {

// The keys keyspace events named and that still have to be read: each once however often it
// changed, oldest first.
//
// Handed out in the order they first changed, not in a hash's order. Taken a slice at a time from
// the front of a big QSet, the keys came back to the monitor grouped by their place in that set,
// which shares its hash function and seed with the monitor's tables; with a million keys waiting
// the monitor's thread spent two thirds of its time comparing keys inside those tables' lookups
// (perf), and the window showed under 90k of a million locks after 150 s (692k in arrival order). Arrival
// order is also fair: a key that keeps changing cannot keep others waiting.
//
// Whether a key waits is a bit of its entry in the scan worker's key table, which has an entry for
// every key it knows anyway: a set of its own held 30 MB while a million changed locks waited. The
// queue holds the entries' places in that table (4 bytes a key, where a copy of the key was 24),
// and follows them when a sweep moves them.
class ChangedKeyQueue final
{
public:
    explicit ChangedKeyQueue(ScanKeyTable& table);
    ~ChangedKeyQueue();
    Q_DISABLE_COPY_MOVE(ChangedKeyQueue)

    bool isEmpty() const { return m_entries.empty(); }
    qsizetype size() const { return qsizetype(m_entries.size()); }
    // Queues the key of `entry` (an entry of the table) unless it already waits.
    void push(ScanKeyTable::Stored entry);
    // Up to `max` keys, oldest first; they no longer wait (a new change queues them again).
    QByteArrayList take(qsizetype max);

private:
    void renumber(const ScanKeyTable::Renumbering& moved);

    ScanKeyTable& m_table;
    // In blocks: a list taken from the front and appended to grew to room for twice the keys
    // waiting (a flood of changes to a million locks: 67 MB for 24 MB of keys).
    std::deque<quint32> m_entries;
};

} // namespace lockscope
