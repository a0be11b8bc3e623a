// SPDX-License-Identifier: Apache-2.0
#include "trace/tracerecordevent.h"

#include "base/bytesdisplay.h"

namespace lockscope {

std::optional<RecordEvent> TraceRecordEvent::of(const QByteArray& resource, const TracedCommand& command)
{
    using Kind = RecordEvent::Kind;
    RecordEvent e;
    e.timeMs = command.seenMs;
    e.resource = resource;
    e.master = command.master;
    e.owner = escapeBytes(command.client.address);
    const QString who = command.client.display();
    switch (command.meaning) {
    case TraceMeaning::Acquired:
        e.kind = Kind::TracedHolder;
        e.token = command.token;
        e.detail = QStringLiteral("taken by %1").arg(who);
        break;
    case TraceMeaning::StaleRelease:
    case TraceMeaning::StaleExtend:
        e.kind = Kind::TracedStale;
        e.token = command.token;
        e.detail = QStringLiteral("%1 from %2").arg(traceMeaningText(command.meaning), who);
        if (!command.holderToken.isEmpty())
            e.detail += QStringLiteral("; %1 held it").arg(escapeBytes(command.holderToken));
        break;
    case TraceMeaning::DeletedByNonHolder:
        e.kind = Kind::TracedDelete;
        e.token = command.holderToken;
        e.detail = QStringLiteral("%1 from %2").arg(traceMeaningText(command.meaning), who);
        if (!command.holderClient.isEmpty())
            e.detail += QStringLiteral("; the holder took it on %1").arg(escapeBytes(command.holderClient));
        break;
    case TraceMeaning::Replaced:
        e.kind = Kind::TracedOverwrite;
        e.token = command.token;
        e.detail = QStringLiteral("%1 from %2").arg(traceMeaningText(command.meaning), who);
        if (!command.holderToken.isEmpty())
            e.detail += QStringLiteral(", over %1").arg(escapeBytes(command.holderToken));
        break;
    default:
        return std::nullopt;
    }
    if (e.timeMs <= 0 || e.token.isEmpty()) // a holder the trace never saw take it: nothing to tie it to
        return std::nullopt;
    return e;
}

} // namespace lockscope
