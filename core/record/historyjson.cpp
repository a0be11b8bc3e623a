// SPDX-License-Identifier: Apache-2.0
#include "record/historyjson.h"

#include "base/bytesdisplay.h"

#include <QDateTime>
#include <QJsonArray>

namespace lockscope {

QString HistoryJson::time(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QJsonObject HistoryJson::episode(const Episode& e)
{
    return {{QStringLiteral("token"), escapeBytes(e.token)},
            {QStringLiteral("owner"), e.owner},
            {QStringLiteral("start"), time(e.startMs)},
            {QStringLiteral("end"), e.endMs < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(time(e.endMs))},
            {QStringLiteral("ended"), episodeEndName(e.ended)},
            {QStringLiteral("extensions"), e.extensions},
            {QStringLiteral("maxHolding"), e.maxHolding},
            {QStringLiteral("masters"), QJsonArray::fromStringList(e.masters)}};
}

QJsonObject HistoryJson::event(const HistoryEvent& h)
{
    const RecordEvent& e = h.event;
    QJsonObject o{{QStringLiteral("time"), time(e.timeMs)},
                  {QStringLiteral("event"), recordEventKindName(e.kind)}};
    if (e.master >= 0)
        o.insert(QStringLiteral("master"), h.masterName);
    if (!e.isMasterEvent()) {
        o.insert(QStringLiteral("token"), escapeBytes(e.token));
        o.insert(QStringLiteral("holding"), e.holding);
    }
    // A traced command's `owner` is the connection that sent it, not the lock's owner.
    if (!e.owner.isEmpty())
        o.insert(isTracedKind(e.kind) ? QStringLiteral("connection") : QStringLiteral("owner"), e.owner);
    if (e.ttlMs >= 0)
        o.insert(QStringLiteral("ttlMs"), e.ttlMs);
    if (!e.detail.isEmpty())
        o.insert(QStringLiteral("detail"), e.detail);
    if (!e.auditId.isEmpty())
        o.insert(QStringLiteral("auditId"), e.auditId);
    return o;
}

QStringList HistoryJson::recorders(const ResourceHistory& history)
{
    if (history.events.isEmpty())
        return {};
    const qint64 from = history.events.first().event.timeMs;
    const qint64 to = history.events.last().event.timeMs;
    QStringList out;
    for (const RecordingSession& s : history.sessions)
        if (s.startedMs <= to && s.lastMs >= from)
            for (const QString& r : s.recorders)
                if (!out.contains(r))
                    out << r;
    return out;
}

QJsonObject HistoryJson::history(const ResourceHistory& history)
{
    QJsonArray episodes;
    for (const Episode& e : history.episodes)
        episodes.append(episode(e));
    QJsonArray events;
    for (const HistoryEvent& h : history.events)
        events.append(event(h));
    QJsonArray others;
    for (const QStringList& set : history.otherMasterSets)
        others.append(QJsonArray::fromStringList(set));
    return {{QStringLiteral("resource"), escapeBytes(history.resource)},
            {QStringLiteral("masters"), QJsonArray::fromStringList(history.masters)},
            {QStringLiteral("otherMasterSets"), others},
            {QStringLiteral("recordedBy"), QJsonArray::fromStringList(recorders(history))},
            {QStringLiteral("episodes"), episodes},
            {QStringLiteral("events"), events}};
}

QStringList HistoryJson::text(const ResourceHistory& history)
{
    QStringList lines;
    const auto shown = [](qint64 ms) {
        return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC)
            .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
    };
    lines << QStringLiteral("%1: %2 episode(s), %3 event(s) (times UTC)")
                 .arg(escapeBytes(history.resource))
                 .arg(history.episodes.size())
                 .arg(history.events.size());
    if (!history.masters.isEmpty())
        lines << QStringLiteral("  recorded from: %1").arg(history.masters.join(QStringLiteral(", ")));
    if (const QStringList by = recorders(history); !by.isEmpty())
        lines << QStringLiteral("  recorded by: %1").arg(by.join(QStringLiteral(", ")));
    for (const QStringList& set : history.otherMasterSets)
        lines << QStringLiteral("  also recorded from other masters (another story; name them with -m): %1")
                     .arg(set.join(QStringLiteral(", ")));
    for (const Episode& e : history.episodes) {
        QString line = QStringLiteral("  %1 → %2  %3  token %4")
                           .arg(shown(e.startMs),
                                e.endMs < 0 ? QStringLiteral("(now)").leftJustified(23) : shown(e.endMs),
                                episodeEndName(e.ended).leftJustified(14), escapeBytes(e.token));
        if (!e.owner.isEmpty())
            line += QStringLiteral("  owner \"%1\"").arg(e.owner);
        line += QStringLiteral("  %1 extension(s), held on up to %2: %3")
                    .arg(e.extensions)
                    .arg(e.maxHolding)
                    .arg(e.masters.join(QStringLiteral(", ")));
        lines << line;
    }
    lines << QStringLiteral("events:");
    for (const HistoryEvent& h : history.events) {
        const RecordEvent& e = h.event;
        QString line =
            QStringLiteral("  %1  %2").arg(shown(e.timeMs), recordEventKindName(e.kind).leftJustified(16));
        if (!h.masterName.isEmpty())
            line += QStringLiteral("  ") + h.masterName;
        if (!e.isMasterEvent())
            line += QStringLiteral("  token %1").arg(escapeBytes(e.token));
        if (!e.owner.isEmpty())
            line +=
                (isTracedKind(e.kind) ? QStringLiteral("  connection %1") : QStringLiteral("  owner \"%1\""))
                    .arg(e.owner);
        if (!e.detail.isEmpty())
            line += QStringLiteral("  (%1)").arg(e.detail);
        if (!e.auditId.isEmpty())
            line += QStringLiteral("  audit %1").arg(e.auditId);
        lines << line;
    }
    return lines;
}

} // namespace lockscope
