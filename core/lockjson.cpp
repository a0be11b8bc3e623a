#include "lockjson.h"

#include "bytesdisplay.h"
#include "masterset.h"

#include <QJsonArray>

namespace lockscope {

QJsonObject LockJson::lock(const LockView& view, const MasterSet& masters, qint64 nowMs)
{
    QJsonArray holders;
    for (int i : view.holders)
        holders << masters.at(i)->name();
    QJsonArray observations;
    for (int i = 0; i < view.observations.size(); ++i) {
        const MasterObservation& m = view.observations.at(i);
        QJsonObject o{{QStringLiteral("master"), masters.at(i)->name()},
                      {QStringLiteral("present"), m.key.present && !m.key.error.isError()}};
        if (m.key.error.isError()) {
            o.insert(QStringLiteral("error"), m.key.error.message);
        } else if (m.key.present) {
            o.insert(QStringLiteral("type"), QString::fromLatin1(m.key.type));
            o.insert(QStringLiteral("token"), escapeBytes(m.lock.token));
            o.insert(QStringLiteral("pttlMs"),
                     m.key.pttlMs < 0 ? m.key.pttlMs
                                      : qMax<qint64>(0, m.key.pttlMs - (nowMs - m.key.readAtMs)));
            if (!m.lock.holders.isEmpty() && m.lock.holders.size() + (m.key.truncated ? 1 : 0) > 1) {
                QJsonArray hs;
                for (const LockHolder& h : m.lock.holders)
                    hs << QJsonObject{{QStringLiteral("id"), escapeBytes(h.id)},
                                      {QStringLiteral("owner"), h.owner},
                                      {QStringLiteral("count"), h.count}};
                o.insert(QStringLiteral("lockHolders"), hs);
            }
            if (m.key.truncated)
                o.insert(QStringLiteral("truncated"), true);
        }
        observations << o;
    }
    QJsonObject out{{QStringLiteral("resource"), escapeBytes(view.resource)},
                    {QStringLiteral("status"), lockStatusName(view.status)},
                    {QStringLiteral("format"), lockFormatName(view.format)},
                    {QStringLiteral("token"), escapeBytes(view.token)},
                    {QStringLiteral("owner"), view.owner},
                    {QStringLiteral("quorum"), QJsonObject{{QStringLiteral("holding"), view.holding},
                                                           {QStringLiteral("needed"), view.needed},
                                                           {QStringLiteral("total"), view.total}}},
                    {QStringLiteral("validityMs"), view.validityAt(nowMs)},
                    {QStringLiteral("holders"), holders},
                    {QStringLiteral("observations"), observations}};
    if (view.atRisk)
        out.insert(QStringLiteral("atRisk"), view.atRiskReason);
    return out;
}

QJsonObject LockJson::master(const MasterSet& masters, int index, NotificationMode mode)
{
    const RedisConnection* c = masters.at(index);
    const MasterHealth& h = c->health();
    QJsonObject out{{QStringLiteral("url"), c->name()},
                    {QStringLiteral("up"), c->isUp()},
                    {QStringLiteral("error"), c->isUp() || !c->lastError().isError()
                                                  ? QJsonValue()
                                                  : QJsonValue(c->lastError().message)},
                    {QStringLiteral("version"), h.version.isEmpty() ? QJsonValue() : QJsonValue(h.version)},
                    {QStringLiteral("latencyMs"), h.latencyMs < 0 ? QJsonValue() : QJsonValue(h.latencyMs)},
                    {QStringLiteral("notifications"), notificationModeName(mode)}};
    if (!h.role.isEmpty())
        out.insert(QStringLiteral("role"), h.role);
    if (h.clockOffsetKnown)
        out.insert(QStringLiteral("clockOffsetMs"), h.clockOffsetMs);
    return out;
}

} // namespace lockscope
