// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QHash>
#include <QtGlobal>

namespace lockscope {

// How many resources the monitor will know once every master's first SCAN is through, forecast
// from those it knows so far and how far each scan has got. The window sizes its tables kept per
// lock (the model's index, the history, the stories) by it while they are still small: grown by
// doubling instead, at 100k locks they each rehashed 65k entries within the same slice (the first
// view's longest stall, 62 ms); at a million, 524k each.
//
// A lock on several masters is known once any of their scans met it. SCAN meets keys in the order
// of their hash, which each server seeds at random, so the scans meet a lock independently: after
// fractions f_i of the keyspaces a lock is known with probability 1 - prod(1 - f_i), and the
// forecast is known / that, at most the keys of all the keyspaces together.
class LockCountForecast
{
public:
    // Keys scanned of `total` on `master` (the scan's progress).
    void setProgress(int master, qint64 scanned, qint64 total);
    // The expected count with `known` resources known now; 0 while too little is scanned to say.
    qint64 expected(qint64 known) const;

    // Below this share of the keyspace met no forecast is made: the first pages say little.
    static constexpr double leastShare = 0.02;

private:
    struct Progress
    {
        qint64 scanned = 0;
        qint64 total = 0; // keys in its database
    };
    QHash<int, Progress> m_progress; // per master
};

} // namespace lockscope
