#include "export/lockjsonwriter.h"

#include "export/jsonmembers.h"
#include "topology/clusterentry.h"
#include "topology/clusterkeyslot.h"
#include "topology/clustertopology.h"
#include "topology/masterset.h"

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

// Members are written in QJsonObject's order (sorted by name); LockJson::lock() is the reference.
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
        o.number("pttlMs",
                 m.pttlMs() < 0 ? m.pttlMs() : qMax<qint64>(0, m.pttlMs() - (nowMs - m.readAtMs())));
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

void LockJsonWriter::appendLock(std::string& out, const LockView& view, const MasterSet& masters,
                                qint64 nowMs, std::string_view diagnosis)
{
    JsonMembers lock(out);
    if (view.atRisk)
        lock.text("atRisk", view.atRiskReason());
    if (!diagnosis.empty())
        lock.key("diagnosis") += diagnosis;
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

} // namespace lockscope
