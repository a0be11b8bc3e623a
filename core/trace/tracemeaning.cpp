// SPDX-License-Identifier: Apache-2.0
#include "trace/tracemeaning.h"

namespace lockscope {

QString traceMeaningName(TraceMeaning meaning)
{
    switch (meaning) {
    case TraceMeaning::Acquired:
        return QStringLiteral("acquired");
    case TraceMeaning::Refused:
        return QStringLiteral("refused");
    case TraceMeaning::Extended:
        return QStringLiteral("extended");
    case TraceMeaning::Released:
        return QStringLiteral("released");
    case TraceMeaning::StaleRelease:
        return QStringLiteral("stale-release");
    case TraceMeaning::StaleExtend:
        return QStringLiteral("stale-extend");
    case TraceMeaning::DeletedByNonHolder:
        return QStringLiteral("deleted-by-non-holder");
    case TraceMeaning::Replaced:
        return QStringLiteral("replaced");
    case TraceMeaning::Waiting:
        return QStringLiteral("waiting");
    case TraceMeaning::Read:
        return QStringLiteral("read");
    case TraceMeaning::Other:
        break;
    }
    return QStringLiteral("other");
}

QString traceMeaningText(TraceMeaning meaning)
{
    switch (meaning) {
    case TraceMeaning::Acquired:
        return QStringLiteral("acquired");
    case TraceMeaning::Refused:
        return QStringLiteral("acquire refused");
    case TraceMeaning::Extended:
        return QStringLiteral("extended");
    case TraceMeaning::Released:
        return QStringLiteral("released");
    case TraceMeaning::StaleRelease:
        return QStringLiteral("release with a token that no longer holds it");
    case TraceMeaning::StaleExtend:
        return QStringLiteral("extend with a token that no longer holds it");
    case TraceMeaning::DeletedByNonHolder:
        return QStringLiteral("deleted by a connection that does not hold it");
    case TraceMeaning::Replaced:
        return QStringLiteral("replaced by a plain write");
    case TraceMeaning::Waiting:
        return QStringLiteral("waiter");
    case TraceMeaning::Read:
        return QStringLiteral("read");
    case TraceMeaning::Other:
        break;
    }
    return QStringLiteral("other");
}

bool isTraceWarning(TraceMeaning meaning)
{
    return meaning == TraceMeaning::StaleRelease || meaning == TraceMeaning::StaleExtend ||
           meaning == TraceMeaning::DeletedByNonHolder || meaning == TraceMeaning::Replaced;
}

} // namespace lockscope
