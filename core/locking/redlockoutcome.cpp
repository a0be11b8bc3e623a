#include "locking/redlockoutcome.h"

namespace lockscope {

QString redlockVerdictName(RedlockOutcome::Verdict verdict)
{
    switch (verdict) {
    case RedlockOutcome::Verdict::Done:
        return QStringLiteral("done");
    case RedlockOutcome::Verdict::NotDone:
        return QStringLiteral("not-done");
    case RedlockOutcome::Verdict::Unavailable:
        return QStringLiteral("unavailable");
    case RedlockOutcome::Verdict::Refused:
        return QStringLiteral("refused");
    case RedlockOutcome::Verdict::Invalid:
        return QStringLiteral("invalid");
    }
    return QStringLiteral("invalid");
}

} // namespace lockscope
