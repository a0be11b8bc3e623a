// SPDX-License-Identifier: Apache-2.0
#include "demo/demofencingcounter.h"

#include "locking/quorumcall.h"
#include "topology/masterset.h"

#include <QPointer>

namespace lockscope {

namespace {

MasterVote::Answer judgeCounter(const RedisReply& reply)
{
    return reply.isInteger() ? MasterVote::Answer::Yes : MasterVote::Answer::Failed;
}

const QByteArray raiseScript = "local c = tonumber(redis.call('GET', KEYS[1]) or '0') "
                               "if c < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end "
                               "return 1";

} // namespace

DemoFencingCounter::DemoFencingCounter(MasterSet* masters, int timeoutMs, QObject* parent)
    : QObject(parent), m_masters(masters), m_timeoutMs(timeoutMs)
{}

void DemoFencingCounter::next(const QByteArray& counterKey, Done done)
{
    const QByteArrayList incr{"INCR", counterKey};
    QuorumCall::start(
        *m_masters, m_timeoutMs, QuorumCall::Until::AllAnswered,
        [incr](RedisConnection* c, RedisConnection::Callback reply) { c->send(incr, std::move(reply)); },
        judgeCounter,
        [self = QPointer<DemoFencingCounter>(this), counterKey, done](const QuorumCall::Tally& tally) {
            if (!self)
                return;
            if (!tally.reachedQuorum()) {
                done(RedisError(ErrorKind::NotConnected, QString(),
                                tr("no fencing number: only %1 of %2 masters answered, %3 needed")
                                    .arg(tally.yes)
                                    .arg(tally.total())
                                    .arg(tally.needed)));
                return;
            }
            qint64 highest = 0;
            for (const MasterVote& v : tally.votes)
                if (v.answer == MasterVote::Answer::Yes)
                    highest = qMax(highest, v.reply.integer);
            // Best effort: a master that misses this is caught up by the next majority's INCR max.
            const QByteArrayList raise{"EVAL", raiseScript, "1", counterKey, QByteArray::number(highest)};
            for (RedisConnection* c : self->m_masters->connections())
                if (c->state() == RedisConnection::State::Up)
                    c->send(raise);
            done(highest);
        });
}

} // namespace lockscope
