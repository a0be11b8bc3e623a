// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/diagnosis.h"

#include "base/bytesdisplay.h"
#include "base/durationformat.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHash>
#include <QSet>

#include <functional>

namespace lockscope {

namespace {

// Translated once per text and thread: a `list --json` of a big keyspace writes a sentence for each
// of a million stuck keys, and translate() decodes the text anew every time. Translators are
// installed before anything is diagnosed and never change afterwards.
QString tr(const char* text)
{
    thread_local QHash<const char*, QString> translated;
    auto it = translated.constFind(text);
    if (it == translated.constEnd())
        it = translated.insert(text, QCoreApplication::translate("LockDiagnosis", text));
    return *it;
}

QString clock(qint64 wallMs)
{
    return QDateTime::fromMSecsSinceEpoch(wallMs, Qt::UTC)
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz 'UTC'"));
}

// Evidence is cut, not dropped: a lock on 100 masters or with 1,000 waiters stays one sentence.
QString listOf(const QStringList& items, int most = 5, const QString& separator = QStringLiteral(", "))
{
    if (items.size() <= most)
        return items.join(separator);
    return tr("%1 and %2 more").arg(items.mid(0, most).join(separator)).arg(items.size() - most);
}

class Words
{
public:
    Words(const LockView& view, const DiagnosisContext& context) : m_view(view), m_context(context) {}

    QString master(int index) const
    {
        return index >= 0 && index < m_context.masterNames.size() ? m_context.masterNames.at(index)
                                                                  : tr("M%1").arg(index + 1);
    }
    QString masters(const std::function<bool(const MasterObservation&)>& which) const
    {
        QStringList names;
        for (int i = 0; i < m_view.observations.size(); ++i)
            if (which(m_view.observations.at(i)))
                names << master(i);
        return listOf(names);
    }
    QString holder() const;

private:
    const LockView& m_view;
    const DiagnosisContext& m_context;
};

QString holderText(const QByteArray& token, const QString& owner);

QString Words::holder() const
{
    return holderText(m_view.token, m_view.owner);
}

bool heldHere(const MasterObservation& m)
{
    return m.present() && !m.error().isError();
}

void stuck(const LockView& v, const DiagnosisContext& c, const Words& w, QList<Diagnosis>& out)
{
    if (v.status != LockStatus::Stuck)
        return;
    const auto past = [](const MasterObservation& m) { return heldHere(m) && m.lock().expiredByTimestamp; };
    qint64 expiredAt = -1;
    for (const MasterObservation& m : v.observations)
        if (past(m))
            expiredAt = qMax(expiredAt, m.lock().expiresAtMs());
    if (expiredAt >= 0) {
        out << Diagnosis{
            DiagnosisCode::TimestampPast,
            tr("Stuck: the timestamp in the value says it expired at %1, %2 ago, but the key has no "
               "TTL, so it stays on %3 until someone deletes it (the holder, %4, is likely gone).")
                .arg(clock(expiredAt), formatDuration(qMax<qint64>(0, c.nowMs - expiredAt)), w.masters(past),
                     w.holder())};
        return;
    }
    const auto noTtl = [](const MasterObservation& m) { return heldHere(m) && m.pttlMs() == -1; };
    out << Diagnosis{
        DiagnosisCode::NoExpiry,
        tr("Stuck: %1 holds it with no TTL on %2, so it stays until someone deletes it; a holder "
           "that crashed never will.")
            .arg(w.holder(), w.masters(noTtl))};
}

void quorum(const LockView& v, const Words& w, QList<Diagnosis>& out)
{
    const auto down = [](const MasterObservation& m) { return m.error().isError(); };
    int unreachable = 0;
    for (const MasterObservation& m : v.observations)
        unreachable += down(m) ? 1 : 0;
    const QString unreachableText =
        unreachable == 0 ? QString() : tr(" (unreachable: %1)").arg(w.masters(down));
    if (v.status == LockStatus::Partial) {
        const QString on = v.holding == 0 ? tr("no master") : w.masters([&](const MasterObservation& m) {
            return heldHere(m) && m.lock().token == v.token;
        });
        out << Diagnosis{
            DiagnosisCode::QuorumLost,
            tr("Quorum lost: %1 is on %2 of %3 masters (%4), %5 needed%6, so no client holds this "
               "lock safely.")
                .arg(w.holder())
                .arg(v.holding)
                .arg(v.total)
                .arg(on)
                .arg(v.needed)
                .arg(unreachableText)};
    } else if (v.status == LockStatus::Unknown) {
        out << Diagnosis{
            DiagnosisCode::QuorumLost,
            tr("Quorum lost: %1 of %2 masters cannot be reached%3 and %4 are needed, so nobody can "
               "take or release this lock now.")
                .arg(unreachable)
                .arg(v.total)
                .arg(unreachableText)
                .arg(v.needed)};
    } else if (v.status == LockStatus::Contested) {
        QList<QByteArray> tokens;
        for (const MasterObservation& m : v.observations)
            if (heldHere(m) && !tokens.contains(m.lock().token))
                tokens << m.lock().token;
        QStringList parts;
        for (const QByteArray& token : tokens)
            parts << tr("%1 on %2").arg(escapeBytes(token), w.masters([&](const MasterObservation& m) {
                return heldHere(m) && m.lock().token == token;
            }));
        out << Diagnosis{
            DiagnosisCode::Contested,
            tr("Contested: %1 different tokens are held (%2) with %3 of %4 masters needed: two clients "
               "may each believe they hold it.")
                .arg(tokens.size())
                .arg(listOf(parts, 4, QStringLiteral("; ")))
                .arg(v.needed)
                .arg(v.total)};
    }
    if (v.atRisk)
        out << Diagnosis{
            DiagnosisCode::AtRisk,
            tr("At risk: %1; a master that restarted or failed over may have lost its copy, so another "
               "client can take it while %2 still runs.")
                .arg(v.atRiskReason(), w.holder())};
}

QString holderText(const QByteArray& token, const QString& owner)
{
    const QString escaped = escapeBytes(token);
    return owner.isEmpty() ? tr("token %1").arg(escaped) : tr("token %1 (%2)").arg(escaped, owner);
}

// Held-too-long and not-renewed from a story and the TTL left now, with or without a live view.
// `holder` names the holder, asked only for a sentence: the window diagnoses every lock of every
// batch, and nearly all of them need no sentence at all.
void renewalOf(const std::function<QString()>& holder, const LockStory& s, qint64 ttlNow,
               const DiagnosisContext& c, QList<Diagnosis>& out)
{
    const qint64 age = c.nowMs - s.firstSeenMs;
    if (s.leaseMs > 0 && age > c.settings.heldTooLongFactor * double(s.leaseMs)) {
        const QString last = s.lastExtensionMs < 0
                                 ? QString()
                                 : tr(", the last %1 ago").arg(formatDuration(c.nowMs - s.lastExtensionMs));
        out << Diagnosis{
            DiagnosisCode::HeldTooLong,
            tr("Held far longer than its lease: %1 has held it for at least %2 (since %3), %4× its "
               "%5 lease, extended %6 times%7: a renewal loop that never lets go (such as Redisson's "
               "watchdog for a holder that never unlocks).")
                .arg(holder(), formatDuration(age), clock(s.firstSeenMs))
                .arg(double(age) / double(s.leaseMs), 0, 'f', 1)
                .arg(formatDuration(s.leaseMs))
                .arg(s.extensions)
                .arg(last)};
    }
    if (s.extensions < 1 || s.lastExtensionMs < 0)
        return;
    // The usual gap between renewals: between the first and the last one, or before the only one.
    const qint64 gap = s.extensions >= 2 ? (s.lastExtensionMs - s.firstExtensionMs) / (s.extensions - 1)
                                         : s.lastExtensionMs - s.firstSeenMs;
    const qint64 quiet = c.nowMs - s.lastExtensionMs;
    if (quiet <= qMax(2 * gap, c.settings.notRenewedAfterMs) || ttlNow >= s.lastExtensionTtlMs)
        return;
    out << Diagnosis{
        DiagnosisCode::NotRenewed,
        tr("No longer renewed: %1 was extended %2 times (about every %3) until %4 ago, and its TTL has "
           "run down from %5 to %6 since: the holder likely stopped (crashed, hung or lost its "
           "connection), and the lock goes when its TTL ends.")
            .arg(holder())
            .arg(s.extensions)
            .arg(formatDuration(qMax<qint64>(0, gap)), formatDuration(quiet),
                 formatDuration(s.lastExtensionTtlMs), formatDuration(ttlNow))};
}

void renewal(const LockView& v, const LockStory& s, const DiagnosisContext& c, const Words& w,
             QList<Diagnosis>& out)
{
    if (!s.isKnown() || s.token != v.token || v.validityMs < 0)
        return;
    renewalOf([&w] { return w.holder(); }, s, v.validityAt(c.monotonicNowMs), c, out);
}

void owner(const LockView& v, const LockStory& s, const DiagnosisFacts& f, const Words& w,
           QList<Diagnosis>& out)
{
    if (!f.owners.isEmpty()) {
        QStringList clients;
        for (const OwnerClient& o : f.owners) {
            const QString name = o.name.isEmpty() ? QString() : tr("'%1' ").arg(escapeBytes(o.name));
            clients << tr("client %1%2 (id %3) on %4, matched by %5, connected %6, idle %7")
                           .arg(name, escapeBytes(o.address))
                           .arg(o.clientId)
                           .arg(w.master(o.master), QString::fromLatin1(o.matchedBy),
                                formatDuration(o.ageS * 1000), formatDuration(o.idleS * 1000));
        }
        out << Diagnosis{
            DiagnosisCode::OwnerConnected,
            tr("The owner is still connected: %1.").arg(listOf(clients, 3, QStringLiteral("; ")))};
        return;
    }
    if (f.clientsRead && !s.ownerClient.isEmpty() && s.token == v.token)
        out << Diagnosis{
            DiagnosisCode::OwnerDisconnected,
            tr("The owner's connection is gone: %1, last seen %2, is no longer connected, so only the "
               "TTL (or a force-release) will free this lock.")
                .arg(s.ownerClient, clock(s.ownerClientSeenMs))};
}

void waiters(const DiagnosisFacts& f, const DiagnosisContext& c, const Words& w, QList<Diagnosis>& out)
{
    const LockWaiters& wt = f.waiters;
    if (!wt.known || (wt.subscribers <= 0 && wt.queue.isEmpty()))
        return;
    QString sentence = tr("Waiters: %1 client(s) wait for it (subscribed to %2 on %3)")
                           .arg(wt.subscribers)
                           .arg(escapeBytes(wt.channel), w.master(wt.master));
    if (!wt.queue.isEmpty()) {
        QStringList queued;
        for (const QueuedWaiter& q : wt.queue)
            queued << (q.deadlineMs < 0          ? escapeBytes(q.id)
                       : q.deadlineMs >= c.nowMs ? tr("%1 until %2 (in %3)")
                                                       .arg(escapeBytes(q.id), clock(q.deadlineMs),
                                                            formatDuration(q.deadlineMs - c.nowMs))
                                                 : tr("%1 until %2 (%3 ago)")
                                                       .arg(escapeBytes(q.id), clock(q.deadlineMs),
                                                            formatDuration(c.nowMs - q.deadlineMs)));
        sentence += tr("; the fair lock's queue holds %1: %2").arg(wt.queue.size()).arg(listOf(queued));
    }
    out << Diagnosis{DiagnosisCode::Waiters, sentence + QLatin1Char('.')};
}

} // namespace

QString diagnosisCodeName(DiagnosisCode code)
{
    switch (code) {
    case DiagnosisCode::NoExpiry:
        return QStringLiteral("no-expiry");
    case DiagnosisCode::TimestampPast:
        return QStringLiteral("timestamp-past");
    case DiagnosisCode::QuorumLost:
        return QStringLiteral("quorum-lost");
    case DiagnosisCode::Contested:
        return QStringLiteral("contested");
    case DiagnosisCode::AtRisk:
        return QStringLiteral("at-risk");
    case DiagnosisCode::HeldTooLong:
        return QStringLiteral("held-too-long");
    case DiagnosisCode::NotRenewed:
        return QStringLiteral("not-renewed");
    case DiagnosisCode::OwnerConnected:
        return QStringLiteral("owner-connected");
    case DiagnosisCode::OwnerDisconnected:
        return QStringLiteral("owner-disconnected");
    case DiagnosisCode::Waiters:
        return QStringLiteral("waiters");
    }
    return QStringLiteral("unknown");
}

QList<Diagnosis> LockDiagnosis::diagnose(const LockView& view, const LockStory& story,
                                         const DiagnosisFacts& facts, const DiagnosisContext& context)
{
    const Words words(view, context);
    QList<Diagnosis> out;
    stuck(view, context, words, out);
    quorum(view, words, out);
    renewal(view, story, context, words, out);
    owner(view, story, facts, words, out);
    waiters(facts, context, words, out);
    return out;
}

QList<Diagnosis> LockDiagnosis::diagnoseStory(const LockStory& story, const QString& owner, qint64 ttlNowMs,
                                              const DiagnosisContext& context)
{
    QList<Diagnosis> out;
    if (story.isKnown() && story.leaseMs < 0)
        out << Diagnosis{
            DiagnosisCode::NoExpiry,
            tr("Stuck: %1 has held it for %2 (since %3) and no TTL was ever read for it, so it stays "
               "until someone deletes it; a holder that crashed never will.")
                .arg(holderText(story.token, owner),
                     formatDuration(qMax<qint64>(0, context.nowMs - story.firstSeenMs)),
                     clock(story.firstSeenMs))};
    else if (story.isKnown())
        renewalOf([&] { return holderText(story.token, owner); }, story, ttlNowMs, context, out);
    return out;
}

QStringList LockDiagnosis::sentences(const QList<Diagnosis>& diagnoses)
{
    QStringList out;
    for (const Diagnosis& d : diagnoses)
        out << d.sentence;
    return out;
}

} // namespace lockscope
