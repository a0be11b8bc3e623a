// SPDX-License-Identifier: Apache-2.0
#include "record/recordevent.h"

#include "base/bytesdisplay.h"

namespace lockscope {

QString recordEventKindName(RecordEvent::Kind kind)
{
    using Kind = RecordEvent::Kind;
    switch (kind) {
    case Kind::Seen:
        return QStringLiteral("seen");
    case Kind::Acquired:
        return QStringLiteral("acquired");
    case Kind::Extended:
        return QStringLiteral("extended");
    case Kind::Released:
        return QStringLiteral("released");
    case Kind::Expired:
        return QStringLiteral("expired");
    case Kind::Replaced:
        return QStringLiteral("replaced");
    case Kind::Lost:
        return QStringLiteral("lost");
    case Kind::ForceReleased:
        return QStringLiteral("force-released");
    case Kind::TypeChanged:
        return QStringLiteral("type-changed");
    case Kind::Holders:
        return QStringLiteral("holders");
    case Kind::AtRisk:
        return QStringLiteral("at-risk");
    case Kind::RiskCleared:
        return QStringLiteral("risk-cleared");
    case Kind::Contested:
        return QStringLiteral("contested");
    case Kind::MasterDown:
        return QStringLiteral("master-down");
    case Kind::MasterUp:
        return QStringLiteral("master-up");
    case Kind::MasterRestarted:
        return QStringLiteral("master-restarted");
    case Kind::Failover:
        return QStringLiteral("failover");
    case Kind::FailoverReport:
        return QStringLiteral("failover-report");
    case Kind::Notified:
        return QStringLiteral("notified");
    case Kind::TracedHolder:
        return QStringLiteral("traced-holder");
    case Kind::TracedStale:
        return QStringLiteral("traced-stale");
    case Kind::TracedDelete:
        return QStringLiteral("traced-delete");
    case Kind::TracedOverwrite:
        return QStringLiteral("traced-overwrite");
    case Kind::TracedAlive:
        return QStringLiteral("traced-alive");
    case Kind::TracedGone:
        return QStringLiteral("traced-gone");
    case Kind::FenceCounter:
        return QStringLiteral("fence-counter");
    case Kind::Waiters:
        return QStringLiteral("waiters");
    case Kind::TracedRefused:
        return QStringLiteral("traced-refused");
    case Kind::DeletedAfter:
        return QStringLiteral("deleted-after");
    case Kind::ValidThrough:
        return QStringLiteral("valid-through");
    }
    return QStringLiteral("unknown");
}

bool isTracedKind(RecordEvent::Kind kind)
{
    using Kind = RecordEvent::Kind;
    return kind == Kind::TracedHolder || kind == Kind::TracedStale || kind == Kind::TracedDelete ||
           kind == Kind::TracedOverwrite || kind == Kind::TracedAlive || kind == Kind::TracedGone ||
           kind == Kind::TracedRefused;
}

bool isEvidenceOnly(RecordEvent::Kind kind)
{
    return kind == RecordEvent::Kind::Notified || kind == RecordEvent::Kind::FenceCounter ||
           kind == RecordEvent::Kind::Waiters || kind == RecordEvent::Kind::DeletedAfter ||
           kind == RecordEvent::Kind::ValidThrough || isTracedKind(kind);
}

bool recordEventKindFromNumber(int number, RecordEvent::Kind* kind)
{
    const auto k = RecordEvent::Kind(number);
    if (recordEventKindName(k) == QLatin1String("unknown"))
        return false;
    *kind = k;
    return true;
}

quint64 holdersMask(const QList<int>& masters)
{
    quint64 mask = 0;
    for (int m : masters)
        if (m >= 0 && m < 64)
            mask |= quint64(1) << m;
    return mask;
}

RecordEvent fenceCounterEvent(int master, const QByteArray& resource, const QByteArray& counter, qint64 value)
{
    RecordEvent e;
    e.kind = RecordEvent::Kind::FenceCounter;
    e.master = master;
    e.resource = resource;
    e.token = QByteArray::number(value);
    e.detail = escapeBytes(counter);
    return e;
}

RecordEvent deletedAfterEvent(int master, const QByteArray& resource, const QByteArray& token,
                              qint64 ranAfterMs)
{
    RecordEvent e;
    e.kind = RecordEvent::Kind::DeletedAfter;
    e.timeMs = ranAfterMs;
    e.master = master;
    e.resource = resource;
    e.token = token;
    e.detail = QStringLiteral("deleted on the server after this moment (its keyspace event followed the "
                              "answer to a PING sent then)");
    return e;
}

RecordEvent validThroughEvent(const QByteArray& resource, const QByteArray& token, qint64 leftMs)
{
    RecordEvent e;
    e.kind = RecordEvent::Kind::ValidThrough;
    e.resource = resource;
    e.token = token;
    e.ttlMs = leftMs;
    e.detail =
        QStringLiteral("valid for at least %1 ms more (its TTLs counted from when they were asked for)")
            .arg(leftMs);
    return e;
}

RecordEvent waitersEvent(int master, const QByteArray& resource, qint64 count)
{
    RecordEvent e;
    e.kind = RecordEvent::Kind::Waiters;
    e.master = master;
    e.resource = resource;
    e.token = QByteArray::number(count);
    e.detail =
        count == 1 ? QStringLiteral("1 client waiting") : QStringLiteral("%1 clients waiting").arg(count);
    return e;
}

qint64 waitersOf(const RecordEvent& event)
{
    bool ok = false;
    const qint64 count = event.kind == RecordEvent::Kind::Waiters ? event.token.toLongLong(&ok) : -1;
    return ok && count >= 0 ? count : -1;
}

} // namespace lockscope
