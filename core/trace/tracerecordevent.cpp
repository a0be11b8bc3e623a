// SPDX-License-Identifier: Apache-2.0
#include "trace/tracerecordevent.h"

#include "base/bytesdisplay.h"

#include <optional>

namespace lockscope {

namespace {

std::optional<RecordEvent> commandEvent(const QByteArray& resource, const TracedCommand& command)
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
    case TraceMeaning::Refused: // an attempt turned away: contention, told the same way
        e.kind = command.meaning == TraceMeaning::Refused ? Kind::TracedRefused : Kind::TracedStale;
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

// Whether the connection that took the token whose lease ran out was still open when `command` took
// the lock: evidence about that token's holder.
std::optional<RecordEvent> lapsedEvent(const QByteArray& resource, const TracedCommand& command)
{
    const bool open = command.lapsed == TracedCommand::Lapsed::Open;
    if ((!open && command.lapsed != TracedCommand::Lapsed::Closed) || command.lapsedToken.isEmpty() ||
        command.seenMs <= 0)
        return std::nullopt;
    RecordEvent e;
    e.kind = open ? RecordEvent::Kind::TracedAlive : RecordEvent::Kind::TracedGone;
    e.timeMs = command.seenMs;
    e.resource = resource;
    e.master = command.master;
    e.token = command.lapsedToken;
    e.owner = escapeBytes(command.lapsedClient);
    const QString taker =
        escapeBytes(command.token) + QStringLiteral(" (") + command.client.display() + QLatin1Char(')');
    e.detail =
        open ? QStringLiteral("its connection %1 was still open (idle %2 s) when %3 took the lock")
                   .arg(e.owner)
                   .arg(command.lapsedIdleS)
                   .arg(taker)
             : QStringLiteral("its connection %1 had closed before %2 took the lock").arg(e.owner, taker);
    return e;
}

} // namespace

QList<RecordEvent> TraceRecordEvent::of(const QByteArray& resource, const TracedCommand& command)
{
    QList<RecordEvent> out;
    if (std::optional<RecordEvent> e = commandEvent(resource, command))
        out << std::move(*e);
    if (std::optional<RecordEvent> e = lapsedEvent(resource, command))
        out << std::move(*e);
    return out;
}

} // namespace lockscope
