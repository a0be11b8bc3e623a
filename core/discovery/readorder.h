// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayList>
#include <QHash>

#include <deque>

namespace lockscope {

// Reads on one connection are answered in the order they went out, but one whose keys need a second
// round trip (a hash, a sorted set, a cut value: KeyReader) is complete only after reads sent later
// have delivered. What it read of its other keys in its first round trip is then older than what
// they delivered: a fencing counter went 34, then 33, and a copy of a lock can go back the same way
// (tst_readorder). ReadOrder tells those stale readings apart; while reads complete in the order
// they went out (nearly always) it keeps nothing and costs a comparison.
class ReadOrder
{
public:
    // A read goes out; its number.
    quint64 issue();
    // Whether what `read` learnt of `key` is older than what a read sent after it delivered. Asked
    // of every key read: inline, so that reads completing in order pay one test of an empty hash.
    bool isStale(quint64 read, const QByteArray& key) const
    {
        if (m_ahead.isEmpty())
            return false;
        const auto it = m_ahead.constFind(key);
        return it != m_ahead.cend() && *it > read;
    }
    // `read` delivered what it read of `keys` (after asking isStale of each).
    void delivered(quint64 read, const QByteArrayList& keys);
    // A new connection: reads still out on the old one never complete.
    void reset();

private:
    quint64 m_last = 0;
    std::deque<quint64> m_out; // reads out, in the order they went out
    // Keys delivered by a read while one sent before it was still out: the latest such read of each.
    QHash<QByteArray, quint64> m_ahead;
    quint64 m_latestAhead = 0;
};

} // namespace lockscope
