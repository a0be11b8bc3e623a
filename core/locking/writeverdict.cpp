// SPDX-License-Identifier: Apache-2.0
#include "locking/writeverdict.h"

namespace lockscope {

QString writeVerdictName(WriteVerdict verdict)
{
    switch (verdict) {
    case WriteVerdict::Done:
        return QStringLiteral("done");
    case WriteVerdict::NotDone:
        return QStringLiteral("not-done");
    case WriteVerdict::Unavailable:
        return QStringLiteral("unavailable");
    case WriteVerdict::Refused:
        return QStringLiteral("refused");
    case WriteVerdict::Invalid:
        return QStringLiteral("invalid");
    }
    return QStringLiteral("invalid");
}

bool writeWasSent(WriteVerdict verdict)
{
    return verdict != WriteVerdict::Refused && verdict != WriteVerdict::Invalid;
}

} // namespace lockscope
