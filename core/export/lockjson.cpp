#include "export/lockjson.h"

#include "base/bytesdisplay.h"
#include "topology/clusterentry.h"
#include "topology/clusterkeyslot.h"
#include "topology/clustertopology.h"
#include "topology/masterset.h"

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
                      {QStringLiteral("present"), m.present() && !m.error().isError()}};
        if (const ClusterEntry* cluster = masters.cluster(i)) {
            // Which shard: the primary serving the key's slot in the current map.
            const int slot = ClusterKeySlot::of(view.resource);
            const NodeAddress node = cluster->topology()->slotMap().primaryFor(slot);
            o.insert(QStringLiteral("slot"), slot);
            o.insert(QStringLiteral("node"), node.isValid() ? QJsonValue(node.toString()) : QJsonValue());
        }
        if (m.error().isError()) {
            o.insert(QStringLiteral("error"), m.error().message);
        } else if (m.present()) {
            o.insert(QStringLiteral("type"), escapeBytes(m.type()));
            o.insert(QStringLiteral("token"), escapeBytes(m.lock().token));
            o.insert(QStringLiteral("pttlMs"),
                     m.pttlMs() < 0 ? m.pttlMs() : qMax<qint64>(0, m.pttlMs() - (nowMs - m.readAtMs())));
            if (m.lock().holderCount() > 0 && m.lock().holderCount() + (m.truncated() ? 1 : 0) > 1) {
                QJsonArray hs;
                for (const LockHolder& h : m.lock().holderList())
                    hs << QJsonObject{{QStringLiteral("id"), escapeBytes(h.id)},
                                      {QStringLiteral("owner"), h.owner},
                                      {QStringLiteral("count"), h.count}};
                o.insert(QStringLiteral("lockHolders"), hs);
            }
            if (m.truncated())
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
        out.insert(QStringLiteral("atRisk"), view.atRiskReason());
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
    if (masters.isSentinel(index)) {
        const NodeAddress primary = masters.primaryAddress(index);
        out.insert(QStringLiteral("sentinel"), true);
        out.insert(QStringLiteral("primary"),
                   primary.isValid() ? QJsonValue(primary.toString()) : QJsonValue());
    }
    if (const ClusterEntry* cluster = masters.cluster(index)) {
        out.insert(QStringLiteral("cluster"), true);
        out.insert(QStringLiteral("slotsCovered"), cluster->topology()->slotMap().coveredSlots());
    }
    const QList<MasterNode> nodes = masters.nodes(index);
    if (!nodes.isEmpty()) {
        QJsonArray list;
        for (const MasterNode& n : nodes) {
            QJsonObject node{{QStringLiteral("role"), masterNodeRoleName(n.role)},
                             {QStringLiteral("address"), n.address.toString()},
                             {QStringLiteral("state"),
                              n.monitored ? QJsonValue(RedisConnection::stateName(n.state)) : QJsonValue()},
                             {QStringLiteral("detail"), n.detail}};
            if (n.latencyMs >= 0)
                node.insert(QStringLiteral("latencyMs"), n.latencyMs);
            list << node;
        }
        out.insert(QStringLiteral("nodes"), list);
    }
    return out;
}

QJsonObject LockJson::failover(const FailoverReport& report, const MasterSet& masters)
{
    const auto names = [](const QList<QByteArray>& resources) {
        QJsonArray out;
        for (const QByteArray& r : resources)
            out << escapeBytes(r);
        return out;
    };
    QJsonArray changed;
    for (const FailoverReport::TokenChange& c : report.changedToken)
        changed << QJsonObject{{QStringLiteral("resource"), escapeBytes(c.resource)},
                               {QStringLiteral("before"), escapeBytes(c.before)},
                               {QStringLiteral("after"), escapeBytes(c.after)}};
    return {{QStringLiteral("event"), QStringLiteral("failover")},
            {QStringLiteral("master"), masters.at(report.master)->name()},
            {QStringLiteral("from"), report.change.oldPrimary.toString()},
            {QStringLiteral("to"), report.change.newPrimary.toString()},
            {QStringLiteral("atRisk"), names(report.atRisk)},
            {QStringLiteral("lost"), names(report.lost)},
            {QStringLiteral("changedToken"), changed}};
}

} // namespace lockscope
