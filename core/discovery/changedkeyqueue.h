#pragma once

#include <QByteArrayList>
#include <QSet>

#include <deque>

namespace lockscope {

// The keys keyspace events named and that still have to be read: each once however often it
// changed, oldest first.
//
// Handed out in the order they first changed, not in a hash's order. Taken a slice at a time from
// the front of a big QSet, the keys came back to the monitor grouped by their place in that set,
// which shares its hash function and seed with the monitor's tables; with a million keys waiting
// the monitor's thread spent two thirds of its time comparing keys inside those tables' lookups
// (perf), and the window showed under 90k of a million locks after 150 s (692k in arrival order). The
// set here is only asked whether a key waits, never walked. Arrival order is also fair: a key
// that keeps changing cannot keep others waiting.
class ChangedKeyQueue final
{
public:
    bool isEmpty() const { return m_keys.empty(); }
    qsizetype size() const { return qsizetype(m_keys.size()); }
    // Queues `key` unless it already waits.
    void push(const QByteArray& key);
    // Up to `max` keys, oldest first; they no longer wait (a new change queues them again).
    QByteArrayList take(qsizetype max);

private:
    // In blocks: a list taken from the front and appended to grew to room for twice the keys
    // waiting (a flood of changes to a million locks: 67 MB for 24 MB of keys).
    std::deque<QByteArray> m_keys;
    QSet<QByteArray> m_waiting;
};

} // namespace lockscope
