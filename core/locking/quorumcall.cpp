// SPDX-License-Identifier: Apache-2.0
#include "locking/quorumcall.h"

#include "base/monotonicclock.h"
#include "topology/masterset.h"

#include <QTimerEvent>

namespace lockscope {

void QuorumCall::start(MasterSet& masters, int timeoutMs, Until until, const Issue& issue, Judge judge,
                       Done done)
{
    // A child of the master set: if the masters go away first, their connections drop our callbacks
    // unrun, and the parent takes this round with it instead of leaking it.
    auto* call = new QuorumCall(masters, until, judge, std::move(done));
    call->m_tally.startedNs = monotonicNs();
    call->m_timer.start(qMax(1, timeoutMs), Qt::PreciseTimer, call);
    call->m_issuing = true;
    const QList<RedisConnection*>& connections = masters.connections();
    call->m_outstanding = int(connections.size());
    for (int i = 0; i < connections.size(); ++i)
        issue(connections.at(i), [call, i](const RedisResult& result) { call->onReply(i, result); });
    call->m_issuing = false;
    call->decideIfCertain();
}

QuorumCall::QuorumCall(MasterSet& masters, Until until, Judge judge, Done done)
    : QObject(&masters), m_masters(masters), m_until(until), m_judge(judge), m_done(std::move(done))
{
    m_tally.votes.resize(masters.size());
    m_tally.needed = masters.needed();
}

void QuorumCall::onReply(int index, const RedisResult& result)
{
    --m_outstanding;
    if (!m_decided) {
        MasterVote& vote = m_tally.votes[index];
        vote.latencyUs = (monotonicNs() - m_tally.startedNs) / 1000;
        if (!result.ok()) {
            vote.answer = MasterVote::Answer::Failed;
            vote.error = result.error;
        } else {
            vote.reply = result.reply;
            vote.answer = m_judge(result.reply);
            if (vote.answer == MasterVote::Answer::Failed)
                vote.error = result.anyError(m_masters.at(index)->name());
        }
        switch (vote.answer) {
        case MasterVote::Answer::Yes:
            ++m_tally.yes;
            break;
        case MasterVote::Answer::No:
            ++m_tally.no;
            break;
        default:
            ++m_tally.failed;
            break;
        }
        if (!m_issuing)
            decideIfCertain();
    }
    // Deleted at once rather than by deleteLater(): a posted event per round wakes the event loop
    // once more for nothing, and this runs inside a connection callback, not in our own event.
    if (m_decided && m_outstanding == 0 && !m_issuing)
        delete this;
}

void QuorumCall::decideIfCertain()
{
    if (m_decided)
        return;
    const int total = m_tally.total();
    const int settled = m_tally.yes + m_tally.no + m_tally.failed;
    bool certain = settled == total;
    if (m_until == Until::Quorum)
        certain =
            certain || m_tally.yes >= m_tally.needed || m_tally.no + m_tally.failed > total - m_tally.needed;
    if (!certain)
        return;
    if (m_issuing || settled == 0) {
        // Answers that arrived while the commands were still being issued (a master already known
        // to be down fails at once): report from the event loop, as promised.
        m_immediate = true;
        m_timer.start(0, this);
        return;
    }
    decide(false);
}

void QuorumCall::timerEvent(QTimerEvent* event)
{
    if (event->timerId() != m_timer.timerId())
        return QObject::timerEvent(event);
    const bool noneOutstanding = m_outstanding == 0; // read first: the callback may end everything
    if (noneOutstanding)
        deleteLater(); // every master failed at once; not `delete this` inside our own timer event
    decide(!m_immediate);
}

void QuorumCall::decide(bool timedOut)
{
    if (m_decided)
        return;
    m_decided = true;
    m_timer.stop();
    m_tally.decidedNs = monotonicNs();
    m_tally.timedOut = timedOut;
    if (timedOut) {
        for (int i = 0; i < m_tally.votes.size(); ++i)
            if (MasterVote& vote = m_tally.votes[i]; vote.answer == MasterVote::Answer::Pending) {
                vote.answer = MasterVote::Answer::Failed;
                vote.error = RedisError(ErrorKind::Timeout, m_masters.at(i)->name(),
                                        QStringLiteral("no answer in time"));
                ++m_tally.failed;
            }
    }
    // Last: the callback may start the next round or tear everything down.
    const Done done = std::move(m_done);
    const Tally tally = m_tally;
    done(tally);
}

} // namespace lockscope
