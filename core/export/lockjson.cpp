// SPDX-License-Identifier: Apache-2.0
#include "export/lockjson.h"

#include "base/bytesdisplay.h"
#include "connection/comparedelete.h"
#include "export/jsonmembers.h"
#include "topology/clusterentry.h"
#include "topology/clusterkeyslot.h"
#include "topology/clustertopology.h"
#include "topology/masterset.h"

#include <QJsonArray>

namespace lockscope {

namespace {

// `items` as a JSON array, each written by `one`.
template <typename List, typename One> void appendArray(std::string& out, const List& items, One one)
{
    out += '[';
    bool first = true;
    for (const auto& item : items) {
        if (!first)
            out += ',';
        first = false;
        one(item);
    }
    out += ']';
}

// Members are written in QJsonObject's order (sorted by name).
void appendObservation(std::string& out, const LockView& view, const MasterSet& masters, int i, qint64 nowMs)
{
    const MasterObservation& m = view.observations.at(i);
    const bool failed = m.error().isError();
    const bool shown = !failed && m.present();
    JsonMembers o(out);
    if (failed)
        o.text("error", m.error().message);
    if (shown && m.lock().holderCount() > 0 && m.lock().holderCount() + (m.truncated() ? 1 : 0) > 1)
        appendArray(o.key("lockHolders"), m.lock().holderList(), [&out](const LockHolder& h) {
            JsonMembers holder(out);
            holder.number("count", h.count);
            holder.bytes("id", h.id);
            holder.text("owner", h.owner);
        });
    o.text("master", masters.at(i)->name());
    const ClusterEntry* cluster = masters.cluster(i);
    const int slot = cluster ? ClusterKeySlot::of(view.resource) : -1;
    if (cluster) {
        // Which shard: the primary serving the key's slot in the current map.
        const NodeAddress node = cluster->topology()->slotMap().primaryFor(slot);
        if (node.isValid())
            o.text("node", node.toString());
        else
            o.key("node") += "null";
    }
    o.boolean("present", m.present() && !failed);
    if (shown)
        o.number("pttlMs", m.pttlAt(nowMs));
    if (cluster)
        o.number("slot", slot);
    if (shown) {
        o.bytes("token", m.lock().token);
        if (m.truncated())
            o.boolean("truncated", true);
        o.bytes("type", m.type());
    }
}

} // namespace

void LockJson::appendLock(std::string& out, const LockView& view, const MasterSet& masters, qint64 nowMs,
                          std::initializer_list<JsonMember> extra)
{
    JsonMembers lock(out, extra);
    if (view.atRisk)
        lock.text("atRisk", view.atRiskReason());
    lock.text("format", lockFormatName(view.format));
    appendArray(lock.key("holders"), view.holders,
                [&](int h) { JsonText::appendString(out, masters.at(h)->name()); });
    lock.key("observations") += '[';
    for (int i = 0; i < view.observations.size(); ++i) {
        if (i > 0)
            out += ',';
        appendObservation(out, view, masters, i, nowMs);
    }
    out += ']';
    lock.text("owner", view.owner);
    {
        lock.key("quorum");
        JsonMembers quorum(out);
        quorum.number("holding", view.holding);
        quorum.number("needed", view.needed);
        quorum.number("total", view.total);
    }
    lock.bytes("resource", view.resource);
    lock.text("status", lockStatusName(view.status));
    lock.bytes("token", view.token);
    lock.number("validityMs", view.validityAt(nowMs));
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
                    {QStringLiteral("server"), h.version.isEmpty() ? QJsonValue() : QJsonValue(h.server)},
                    {QStringLiteral("redisVersion"),
                     h.redisVersion.isEmpty() ? QJsonValue() : QJsonValue(h.redisVersion)},
                    {QStringLiteral("guardedDelete"),
                     h.version.isEmpty() ? QJsonValue() : QJsonValue(compareDeleteName(h.compareDelete))},
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
