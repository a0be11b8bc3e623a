// SPDX-License-Identifier: Apache-2.0
#include "locking/redlockoutcome.h"

namespace lockscope {

QString redlockVoteResult(const QString& action, const MasterVote& vote)
{
    switch (vote.answer) {
    case MasterVote::Answer::Yes:
        return action == QLatin1String("acquire")  ? QStringLiteral("locked")
               : action == QLatin1String("extend") ? QStringLiteral("extended")
                                                   : QStringLiteral("released");
    case MasterVote::Answer::No:
        if (action == QLatin1String("acquire"))
            return QStringLiteral("held-by-other");
        return vote.reply.isInteger() && vote.reply.integer == 0 ? QStringLiteral("absent")
                                                                 : QStringLiteral("other-token");
    case MasterVote::Answer::Failed:
        return errorKindName(vote.error.kind);
    case MasterVote::Answer::Pending:
        break;
    }
    return QStringLiteral("not-sent");
}

} // namespace lockscope
