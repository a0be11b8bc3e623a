// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisreply.h"

#include <QString>

namespace lockscope {

// How one master answered one round of a Redlock operation.
struct MasterVote
{
    enum class Answer : quint8
    {
        Pending, // no answer yet
        Yes,     // locked / extended / released here
        No,      // answered, but the lock is someone else's (or absent)
        Failed,  // error, unreachable, or no answer within the per-master timeout
    };

    Answer answer = Answer::Pending;
    RedisReply reply;
    RedisError error;
    qint64 latencyUs = -1; // from the start of the round to this master's answer

    bool answered() const { return answer == Answer::Yes || answer == Answer::No; }
};

} // namespace lockscope
