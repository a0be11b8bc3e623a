// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/compiledglob.h"
#include "config/scanpattern.h"
#include "connection/replykeyfilter.h"

#include <QByteArray>
#include <QList>

#include <vector>

namespace lockscope {

// How one pass over a keyspace covers every configured pattern: always a single SCAN run.
//
// A SCAN with MATCH still visits every key of the keyspace (Redis filters a page only after it was
// collected), so one run per pattern cost the server one full walk per pattern: with the three
// default patterns over 1M keys 2.26 s of server CPU against 0.75 s for one run. One pattern is
// matched by the server (MATCH, nothing to send us that we would drop); several go as one run
// whose MATCH is one glob that covers them all (coveringGlob: *[cm]*[kpx]* for the defaults), and
// what it lets through is matched here, with the server's own glob rules (CompiledGlob). Without it
// every key came back: SCAN took the server a fifth to a quarter longer a page (before writing the
// reply out) and our scan threads a third more CPU (ui-bench, 100k locks among 5.5M keys). They are
// matched as a page is parsed (keyFilter()): a key of no pattern is never copied out of the reply.
// A pattern whose keys another pattern matches anyway (lock:* beside *lock*, in the defaults) is
// not tried: a key of none costs one comparison per pattern that is left.
class ScanPlan final : public ReplyKeyFilter
{
public:
    explicit ScanPlan(const QList<ScanPattern>& patterns);

    // SCAN's MATCH argument; empty: none (every key comes back, keeps() chooses). With several
    // patterns, one that lets through more than their keys: keeps() chooses among those.
    const QByteArray& match() const { return m_match; }
    // SCAN cursor [MATCH match()] COUNT count: the command of one page. `cover` false leaves a
    // covering MATCH out (coverPays()); a single pattern's MATCH always goes.
    QByteArrayList scanCommand(const QByteArray& cursor, int count, bool cover = true) const;
    // Whether a pass goes on sending its covering MATCH after a page that sent it returned
    // `returned` keys (kept here or not) for `count` visited. A page is a random sample of the
    // keyspace (SCAN walks it in hash order): when most keys get through, as where there is little
    // but locks, the server's matcher only adds to its work (lockctl list over 1M locks: 8 %
    // longer), and the rest of the pass goes without; the next pass asks again.
    static bool coverPays(qsizetype returned, int count) { return returned * 4 < qint64(count) * 3; }
    // Whether a key SCAN returned is one of the patterns'.
    bool keeps(QByteArrayView key) const override;
    // What a page's reply is parsed with (RedisConnection::sendScanPage): this plan when it matches
    // keys itself, null when the server does (or every key is kept).
    const ReplyKeyFilter* keyFilter() const { return m_keepsAll ? nullptr : this; }

private:
    void add(const CompiledGlob& glob);

    QByteArray m_match;
    bool m_keepsAll = false;           // the server matched, or a pattern matches every key
    std::vector<CompiledGlob> m_globs; // several patterns: the key must match one
};

} // namespace lockscope
