// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/fencewatch.h"

#include "diagnosis/evidenceline.h"

namespace lockscope {

namespace {

constexpr qsizetype maxEvidence = 64;

} // namespace

FenceWatch::FenceWatch(const QByteArray& resource, int masters, const QList<RecordEvent>& masterEvents,
                       QList<SafetyIncident>& out)
    : m_resource(resource), m_masters(masters), m_masterEvents(masterEvents), m_out(out)
{}

const RecordEvent* FenceWatch::topologyBetween(int master, qint64 fromMs, qint64 toMs) const
{
    for (const RecordEvent& m : m_masterEvents)
        if (m.master == master && m.timeMs >= fromMs && m.timeMs <= toMs &&
            (m.kind == RecordEvent::Kind::MasterRestarted || m.kind == RecordEvent::Kind::Failover))
            return &m;
    return nullptr;
}

bool FenceWatch::add(const RecordEvent& e)
{
    if (e.kind == RecordEvent::Kind::Acquired || e.kind == RecordEvent::Kind::Contested) {
        m_lastGrantMs = qMax(m_lastGrantMs, e.timeMs);
        return false;
    }
    if (e.kind != RecordEvent::Kind::FenceCounter)
        return false;
    read(e);
    return true;
}

void FenceWatch::read(const RecordEvent& e)
{
    bool ok = false;
    const qint64 value = e.token.toLongLong(&ok);
    if (!ok || e.master < 0 || e.master >= 64)
        return;
    if (m_perMaster.size() <= e.master)
        m_perMaster.resize(e.master + 1);
    Counter& c = m_perMaster[e.master];
    const QString line = EvidenceLine::of(e, m_masters);
    if (c.open >= 0) {
        SafetyIncident& i = m_out[c.open];
        if (i.evidence.size() < maxEvidence)
            i.evidence << line;
        i.toMs = e.timeMs;
        if (value <= c.highest)
            return;  // gave out a value it had given out before
        c.open = -1; // past its old highest: new values again
    } else if (c.highest >= 0 && value <= c.highest) {
        // The same value again is news only after the master restarted or changed hands (the
        // monitor reads each change once, and every counter again after either), and only when a
        // grant since should have raised it: then, as a lower one, it was given out again.
        const RecordEvent* changed = topologyBetween(e.master, c.highestAtMs, e.timeMs);
        if (value == c.highest && (!changed || m_lastGrantMs <= changed->timeMs))
            return;
        const QString topology = changed ? EvidenceLine::of(*changed, m_masters) : QString();
        SafetyIncident i;
        i.kind = SafetyIncident::Kind::FencingRegression;
        i.confidence = SafetyIncident::Confidence::Proven;
        i.resource = m_resource;
        i.firstToken = QByteArray::number(c.highest);
        i.secondToken = QByteArray::number(value);
        i.fromMs = e.timeMs;
        i.toMs = e.timeMs;
        i.cause =
            QStringLiteral("its fencing counter (%1) read %2 on %3 after %4 there%5: the values up to %4 "
                           "can be given out again, and a resource that checks fencing tokens then "
                           "takes a stale holder's writes")
                .arg(e.detail)
                .arg(value)
                .arg(EvidenceLine::masterLabel(e.master))
                .arg(c.highest)
                .arg(topology.isEmpty() ? QStringLiteral(", with no restart or failover recorded (a "
                                                         "write or a delete by someone else)")
                                        : QStringLiteral(", after %1").arg(topology));
        i.evidence << line;
        c.open = m_out.size();
        m_out << i;
        return;
    }
    if (value > c.highest) {
        c.highest = value;
        c.highestAtMs = e.timeMs;
    }
}

} // namespace lockscope
