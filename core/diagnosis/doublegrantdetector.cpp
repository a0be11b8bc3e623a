// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/doublegrantdetector.h"

#include "base/bytesdisplay.h"

#include <QDateTime>
#include <QHash>

#include <optional>

namespace lockscope {

namespace {

using Kind = RecordEvent::Kind;

// What the record says of one token in one session, as its events come.
struct Holder
{
    QString owner;
    qint64 startMs = 0;
    int holding = 0;
    quint64 everHolders = 0;
    qint64 ttlMs = -1;        // the validity it was seen with (the view's: TTL less the drift allowance)
    qint64 quorumAtMs = -1;   // when it first held a quorum
    qint64 validUntilMs = -1; // from then, the validity it had (its extensions push it on)
    qint64 gaveUpAtMs = -1;   // released, force-released or expired: it no longer held it
};

struct MasterEvent
{
    qint64 timeMs = 0;
    int master = -1;
    Kind kind = Kind::MasterDown;
    QString text;
};

QString utc(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QString masterLabel(int master)
{
    return QStringLiteral("M%1").arg(master + 1);
}

QString mastersText(quint64 mask)
{
    QStringList names;
    for (int i = 0; i < 64; ++i)
        if (mask & (quint64(1) << i))
            names << masterLabel(i);
    return names.join(QLatin1Char(','));
}

QString evidenceLine(const RecordEvent& e, int total)
{
    QString line = QStringLiteral("%1 %2").arg(utc(e.timeMs), recordEventKindName(e.kind));
    if (e.isMasterEvent())
        return line + QLatin1Char(' ') + masterLabel(e.master) + (e.detail.isEmpty() ? QString() : QStringLiteral(": ") + e.detail);
    line += QLatin1Char(' ') + escapeBytes(e.token);
    if (e.holding > 0)
        line += QStringLiteral(" on %1 (%2 of %3)").arg(mastersText(e.holders)).arg(e.holding).arg(total);
    return line;
}

bool isStart(Kind k)
{
    return k == Kind::Seen || k == Kind::Acquired || k == Kind::Contested;
}

bool isEnd(Kind k)
{
    return k == Kind::Released || k == Kind::Expired || k == Kind::Replaced || k == Kind::Lost ||
           k == Kind::ForceReleased;
}

// One session's events (a session's masters are fixed: its quorum too).
//
// A token that holds a quorum holds the lock until its validity ends or it gives the lock up: a
// second token reaching a quorum before then means two holders at once, whether or not the first
// still shows on a quorum (a restarted master forgot its copy; a failover lost it).
class SessionScan
{
public:
    SessionScan(const QByteArray& resource, int masters, QList<SafetyIncident>& out)
        : m_resource(resource), m_total(masters), m_needed(masters / 2 + 1), m_out(out)
    {
    }

    void add(const RecordEvent& e)
    {
        if (e.isMasterEvent()) {
            if (e.kind == Kind::MasterRestarted || e.kind == Kind::Failover || e.kind == Kind::MasterDown)
                m_masterEvents << MasterEvent{e.timeMs, e.master, e.kind, evidenceLine(e, m_total)};
            return;
        }
        Holder& h = m_holders[e.token];
        if (isStart(e.kind)) {
            h = Holder();
            h.owner = e.owner;
            h.startMs = e.timeMs;
            h.ttlMs = e.ttlMs;
            m_evidence[e.token].clear();
        }
        if (h.owner.isEmpty())
            h.owner = e.owner;
        m_evidence[e.token] << evidenceLine(e, m_total);
        h.everHolders |= e.holders;
        if (e.kind == Kind::Extended && e.ttlMs > 0 && h.quorumAtMs >= 0)
            h.validUntilMs = qMax(h.validUntilMs, e.timeMs + e.ttlMs);
        if (e.kind == Kind::Released || e.kind == Kind::ForceReleased || e.kind == Kind::Expired) {
            h.gaveUpAtMs = e.timeMs;
            h.holding = 0;
            return;
        }
        if (isEnd(e.kind)) { // lost, replaced: its holder did not give it up
            h.holding = 0;
            return;
        }
        h.holding = e.holding;
        if (h.holding >= m_needed && h.quorumAtMs < 0 && h.gaveUpAtMs < 0) {
            h.quorumAtMs = e.timeMs;
            const qint64 ttl = e.ttlMs > 0 ? e.ttlMs : h.ttlMs;
            h.validUntilMs = ttl > 0 ? e.timeMs + ttl : -1;
            reachedQuorum(e.token, e);
        }
    }

private:
    // `token` holds a quorum from now: any other still valid, never given up, holds it too.
    void reachedQuorum(const QByteArray& token, const RecordEvent& e)
    {
        if (m_total == 0)
            return; // its session's masters are not in the file: no quorum to judge by
        for (auto it = m_holders.cbegin(); it != m_holders.cend(); ++it) {
            const Holder& first = it.value();
            if (it.key() == token || first.quorumAtMs < 0 || first.validUntilMs <= e.timeMs ||
                (first.gaveUpAtMs >= 0 && first.gaveUpAtMs <= e.timeMs))
                continue;
            SafetyIncident i;
            // One master (a Sentinel group's primary): only a failover or a restart can have lost
            // the first copy; on several, a quorum each.
            i.kind = m_total == 1 ? SafetyIncident::Kind::FailoverLoss : SafetyIncident::Kind::MajorityOverlap;
            i.confidence = SafetyIncident::Confidence::Proven;
            i.resource = m_resource;
            i.firstToken = it.key();
            i.secondToken = token;
            i.firstOwner = first.owner;
            i.secondOwner = m_holders.value(token).owner;
            i.fromMs = e.timeMs;
            i.toMs = first.validUntilMs;
            i.cause = causeBetween(first.quorumAtMs, e.timeMs, first.everHolders);
            i.evidence << m_evidence.value(it.key());
            for (const MasterEvent& m : std::as_const(m_masterEvents))
                if (m.timeMs >= first.startMs && m.timeMs <= e.timeMs)
                    i.evidence << m.text;
            i.evidence << m_evidence.value(token);
            m_out << i;
        }
    }

    // The restart or failover of a master that held the first token, between its quorum and `untilMs`.
    QString causeBetween(qint64 fromMs, qint64 untilMs, quint64 holders) const
    {
        for (const MasterEvent& m : m_masterEvents)
            if (m.kind != Kind::MasterDown && m.timeMs >= fromMs && m.timeMs <= untilMs && m.master >= 0 &&
                m.master < 64 && (holders & (quint64(1) << m.master)))
                return QStringLiteral("%1, a master that held the first token").arg(m.text);
        return QStringLiteral("no restart or failover of its masters was recorded");
    }

    QByteArray m_resource;
    int m_total;
    int m_needed;
    QList<SafetyIncident>& m_out;
    QHash<QByteArray, Holder> m_holders;
    QHash<QByteArray, QStringList> m_evidence;
    QList<MasterEvent> m_masterEvents;
};

} // namespace

QList<SafetyIncident> DoubleGrantDetector::detect(const ResourceHistory& history)
{
    QList<SafetyIncident> out;
    QHash<qint64, const RecordingSession*> sessions;
    for (const RecordingSession& s : history.sessions)
        sessions.insert(s.id, &s);
    std::optional<SessionScan> scan;
    qint64 current = -1;
    for (const HistoryEvent& h : history.events) {
        if (h.session != current) {
            // Nothing carries from one session to the next: what happened between was not watched.
            const RecordingSession* s = sessions.value(h.session);
            scan.emplace(history.resource, s ? int(s->masters.size()) : 0, out);
            current = h.session;
        }
        scan->add(h.event);
    }
    return out;
}

} // namespace lockscope
