#include "export/lockjsonwriter.h"

#include "export/jsontext.h"
#include "topology/clusterentry.h"
#include "topology/clusterkeyslot.h"
#include "topology/clustertopology.h"
#include "topology/masterset.h"

namespace lockscope {

namespace {

// Members are written in QJsonObject's order (sorted by name); LockJson::lock() is the reference.
void appendObservation(std::string& out, const LockView& view, const MasterSet& masters, int i, qint64 nowMs)
{
    const MasterObservation& m = view.observations.at(i);
    const bool failed = m.error().isError();
    const bool shown = !failed && m.present();
    out += '{';
    if (failed) {
        JsonText::appendKey(out, "error");
        JsonText::appendString(out, m.error().message);
        out += ',';
    }
    if (shown && !m.lock().holders.isEmpty() && m.lock().holders.size() + (m.truncated() ? 1 : 0) > 1) {
        JsonText::appendKey(out, "lockHolders");
        out += '[';
        bool first = true;
        for (const LockHolder& h : m.lock().holders) {
            if (!first)
                out += ',';
            first = false;
            out += '{';
            JsonText::appendKey(out, "count");
            JsonText::appendNumber(out, h.count);
            out += ',';
            JsonText::appendKey(out, "id");
            JsonText::appendBytes(out, h.id);
            out += ',';
            JsonText::appendKey(out, "owner");
            JsonText::appendString(out, h.owner);
            out += '}';
        }
        out += "],";
    }
    JsonText::appendKey(out, "master");
    JsonText::appendString(out, masters.at(i)->name());
    const ClusterEntry* cluster = masters.cluster(i);
    int slot = -1;
    if (cluster) {
        // Which shard: the primary serving the key's slot in the current map.
        slot = ClusterKeySlot::of(view.resource);
        const NodeAddress node = cluster->topology()->slotMap().primaryFor(slot);
        out += ',';
        JsonText::appendKey(out, "node");
        if (node.isValid())
            JsonText::appendString(out, node.toString());
        else
            out += "null";
    }
    out += ',';
    JsonText::appendKey(out, "present");
    JsonText::appendBool(out, m.present() && !failed);
    if (shown) {
        out += ',';
        JsonText::appendKey(out, "pttlMs");
        JsonText::appendNumber(out, m.pttlMs() < 0 ? m.pttlMs()
                                                   : qMax<qint64>(0, m.pttlMs() - (nowMs - m.readAtMs())));
    }
    if (cluster) {
        out += ',';
        JsonText::appendKey(out, "slot");
        JsonText::appendNumber(out, slot);
    }
    if (shown) {
        out += ',';
        JsonText::appendKey(out, "token");
        JsonText::appendBytes(out, m.lock().token);
        if (m.truncated()) {
            out += ',';
            JsonText::appendKey(out, "truncated");
            out += "true";
        }
        out += ',';
        JsonText::appendKey(out, "type");
        JsonText::appendBytes(out, m.type());
    }
    out += '}';
}

} // namespace

void LockJsonWriter::appendLock(std::string& out, const LockView& view, const MasterSet& masters,
                                qint64 nowMs, std::string_view diagnosis)
{
    out += '{';
    if (view.atRisk) {
        JsonText::appendKey(out, "atRisk");
        JsonText::appendString(out, view.atRiskReason);
        out += ',';
    }
    if (!diagnosis.empty()) {
        JsonText::appendKey(out, "diagnosis");
        out += diagnosis;
        out += ',';
    }
    JsonText::appendKey(out, "format");
    JsonText::appendString(out, lockFormatName(view.format));
    out += ',';
    JsonText::appendKey(out, "holders");
    out += '[';
    for (qsizetype h = 0; h < view.holders.size(); ++h) {
        if (h > 0)
            out += ',';
        JsonText::appendString(out, masters.at(view.holders.at(h))->name());
    }
    out += "],";
    JsonText::appendKey(out, "observations");
    out += '[';
    for (int i = 0; i < view.observations.size(); ++i) {
        if (i > 0)
            out += ',';
        appendObservation(out, view, masters, i, nowMs);
    }
    out += "],";
    JsonText::appendKey(out, "owner");
    JsonText::appendString(out, view.owner);
    out += ',';
    JsonText::appendKey(out, "quorum");
    out += '{';
    JsonText::appendKey(out, "holding");
    JsonText::appendNumber(out, view.holding);
    out += ',';
    JsonText::appendKey(out, "needed");
    JsonText::appendNumber(out, view.needed);
    out += ',';
    JsonText::appendKey(out, "total");
    JsonText::appendNumber(out, view.total);
    out += "},";
    JsonText::appendKey(out, "resource");
    JsonText::appendBytes(out, view.resource);
    out += ',';
    JsonText::appendKey(out, "status");
    JsonText::appendString(out, lockStatusName(view.status));
    out += ',';
    JsonText::appendKey(out, "token");
    JsonText::appendBytes(out, view.token);
    out += ',';
    JsonText::appendKey(out, "validityMs");
    JsonText::appendNumber(out, view.validityAt(nowMs));
    out += '}';
}

} // namespace lockscope
