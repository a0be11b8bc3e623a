// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/notificationevaluator.h"

#include "base/bytesdisplay.h"

#include <QCoreApplication>

#include <iterator>

namespace lockscope {

namespace {

QString titleOf(NotificationRule rule)
{
    switch (rule) {
    case NotificationRule::Stuck:
        return QCoreApplication::translate("NotificationEvaluator", "Lock stuck");
    case NotificationRule::HeldTooLong:
        return QCoreApplication::translate("NotificationEvaluator", "Lock held too long");
    case NotificationRule::QuorumLost:
        return QCoreApplication::translate("NotificationEvaluator", "Lock lost its quorum");
    case NotificationRule::Contested:
        return QCoreApplication::translate("NotificationEvaluator", "Lock contested");
    case NotificationRule::MasterDown:
        return QCoreApplication::translate("NotificationEvaluator", "Master down");
    case NotificationRule::DoubleGrant:
        return QCoreApplication::translate("NotificationEvaluator", "Two holders at once");
    }
    return QString();
}

} // namespace

std::optional<NotificationRule> NotificationEvaluator::ruleFor(DiagnosisCode code)
{
    switch (code) {
    case DiagnosisCode::NoExpiry:
    case DiagnosisCode::TimestampPast:
        return NotificationRule::Stuck;
    case DiagnosisCode::HeldTooLong:
        return NotificationRule::HeldTooLong;
    case DiagnosisCode::QuorumLost:
        return NotificationRule::QuorumLost;
    case DiagnosisCode::Contested:
        return NotificationRule::Contested;
    default:
        return std::nullopt;
    }
}

void NotificationEvaluator::fireIfDue(Holding& h, const Key& key, qint64 nowMs,
                                      QList<NotificationEvent>& out) const
{
    if (h.fired || nowMs - h.sinceMs < m_rules.rule(key.rule).afterMs)
        return;
    h.fired = true;
    out << h.event;
}

void NotificationEvaluator::hold(const Key& key, NotificationEvent event, qint64 nowMs,
                                 QList<NotificationEvent>& out, const QByteArray& holder)
{
    auto it = m_holding.find(key);
    if (it == m_holding.end()) {
        // Told a moment ago for the same holder and back already: the same condition, still told.
        const auto told = m_toldAndCleared.constFind(key);
        const bool again =
            told != m_toldAndCleared.cend() && nowMs - told->clearedAtMs < rearmMs && told->holder == holder;
        if (told != m_toldAndCleared.cend())
            m_toldAndCleared.erase(told);
        it = m_holding.insert(key, Holding{nowMs, again, {}, holder});
    }
    if (!it->fired)
        it->event = std::move(event); // the latest evidence, until it is sent
    fireIfDue(*it, key, nowMs, out);
}

QList<NotificationEvent> NotificationEvaluator::evaluateLock(const HashedKey& resource,
                                                             const QList<Diagnosis>& diagnoses, qint64 nowMs,
                                                             const QByteArray& holder)
{
    QList<NotificationEvent> out;
    QList<NotificationRule> holding;
    for (const Diagnosis& d : diagnoses) {
        const std::optional<NotificationRule> rule = ruleFor(d.code);
        if (!rule || !m_rules.rule(*rule).enabled || holding.contains(*rule))
            continue;
        holding << *rule;
        hold(Key{*rule, resource, -1},
             NotificationEvent{*rule, resource, -1,
                               QStringLiteral("%1: %2").arg(titleOf(*rule), escapeBytes(resource)),
                               d.sentence},
             nowMs, out, holder);
    }
    // Cleared: the rule may fire again the next time it holds.
    for (NotificationRule r : NotificationRules::all())
        if (!holding.contains(r))
            clear(Key{r, resource, -1}, nowMs);
    return out;
}

void NotificationEvaluator::lockGone(const HashedKey& resource, qint64 nowMs)
{
    for (NotificationRule r : NotificationRules::all())
        clear(Key{r, resource, -1}, nowMs);
}

void NotificationEvaluator::clear(const Key& key, qint64 nowMs)
{
    const auto it = m_holding.constFind(key);
    if (it == m_holding.cend())
        return;
    if (it->fired && !key.resource.bytes().isEmpty())
        m_toldAndCleared.insert(key, Told{nowMs, it->holder});
    m_holding.erase(it);
}

std::optional<NotificationEvent> NotificationEvaluator::incident(const SafetyIncident& i) const
{
    if (!m_rules.rule(NotificationRule::DoubleGrant).enabled ||
        i.confidence < SafetyIncident::Confidence::Probable)
        return std::nullopt;
    return NotificationEvent{
        NotificationRule::DoubleGrant, i.resource, -1,
        QStringLiteral("%1: %2").arg(titleOf(NotificationRule::DoubleGrant), escapeBytes(i.resource)),
        QCoreApplication::translate("NotificationEvaluator", "%1 %2: %3 held it at once; %4")
            .arg(safetyConfidenceName(i.confidence), safetyIncidentKindName(i.kind), safetyIncidentHolders(i),
                 i.cause)};
}

QList<NotificationEvent> NotificationEvaluator::evaluateMaster(int master, const QString& name, bool up,
                                                               const QString& reason, qint64 nowMs)
{
    QList<NotificationEvent> out;
    const Key key{NotificationRule::MasterDown, QByteArray(), master};
    if (up || !m_rules.rule(NotificationRule::MasterDown).enabled) {
        m_holding.remove(key);
        return out;
    }
    hold(key,
         NotificationEvent{NotificationRule::MasterDown, QByteArray(), master,
                           QStringLiteral("%1: %2").arg(titleOf(NotificationRule::MasterDown), name),
                           reason.isEmpty() ? name : reason},
         nowMs, out);
    return out;
}

QList<NotificationEvent> NotificationEvaluator::tick(qint64 nowMs)
{
    QList<NotificationEvent> out;
    for (auto it = m_holding.begin(); it != m_holding.end(); ++it)
        fireIfDue(*it, it.key(), nowMs, out);
    for (auto it = m_toldAndCleared.begin(); it != m_toldAndCleared.end();)
        it = nowMs - it->clearedAtMs >= rearmMs ? m_toldAndCleared.erase(it) : std::next(it);
    return out;
}

} // namespace lockscope
