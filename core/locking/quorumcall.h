// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisconnection.h"
#include "locking/mastervote.h"

#include <QBasicTimer>
#include <QList>
#include <QObject>

#include <functional>

namespace lockscope {

class MasterSet;

// One round of a Redlock operation: the same command goes to every master at once (multiplexed on
// their pipelined connections, not one after another), each answer is judged as a vote, and a
// single timer per round bounds how long any master may take. The connection's own timeout is
// far longer (it exists to mark a master down); Redlock needs "this master did not answer in
// 50 ms" to cost 50 ms, not seconds.
class QuorumCall final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(QuorumCall)

public:
    enum class Until
    {
        Quorum,      // decide as soon as the outcome is certain: `needed` yes votes, or too many others
        AllAnswered, // wait for every master (or the timer): release and cleanup report per master
    };

    struct Tally
    {
        QList<MasterVote> votes; // one per master, in master order
        int yes = 0;
        int no = 0;
        int failed = 0;
        int needed = 0;
        qint64 startedNs = 0; // monotonic, just before the first command went out
        qint64 decidedNs = 0; // monotonic, when the outcome was fixed
        bool timedOut = false;

        int answered() const { return yes + no; }
        int total() const { return int(votes.size()); }
        bool reachedQuorum() const { return yes >= needed; }
    };

    // Sends the command for one master and arranges for `reply` to be called with its result.
    using Issue = std::function<void(RedisConnection* connection, RedisConnection::Callback reply)>;
    // Turns a server reply (never a transport error) into Yes or No; Failed for an error reply.
    using Judge = MasterVote::Answer (*)(const RedisReply& reply);
    using Done = std::function<void(const Tally& tally)>;

    // Starts a round; `done` runs exactly once, never from inside this call. The round deletes itself.
    static void start(MasterSet& masters, int timeoutMs, Until until, const Issue& issue, Judge judge,
                      Done done);

protected:
    void timerEvent(QTimerEvent* event) override;

private:
    QuorumCall(MasterSet& masters, Until until, Judge judge, Done done);
    void onReply(int index, const RedisResult& result);
    void decideIfCertain();
    void decide(bool timedOut);

    MasterSet& m_masters; // our parent: names for error messages, looked up only when needed
    Until m_until;
    Judge m_judge;
    Done m_done;
    Tally m_tally;
    QBasicTimer m_timer;
    int m_outstanding = 0; // connection callbacks still to come: this object lives until they have
    bool m_decided = false;
    bool m_issuing = false;
    bool m_immediate = false; // the timer runs only to report from the event loop, not as a deadline
};

} // namespace lockscope
