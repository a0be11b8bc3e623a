// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/hashedkey.h"
#include "diagnosis/diagnosis.h"
#include "diagnosis/notificationrules.h"
#include "diagnosis/safetyincident.h"

#include <QHash>
#include <QList>
#include <QMetaType>

namespace lockscope {

// A rule that started to hold: what the window notifies and logs (and the recording keeps).
struct NotificationEvent
{
    NotificationRule rule = NotificationRule::Stuck;
    QByteArray resource; // empty for a master's rule
    int master = -1;     // MasterDown only
    QString title;       // "LockScope: lock stuck"
    QString body;        // the diagnosis sentence (or the master's error)

    bool operator==(const NotificationEvent&) const = default;
};

// The rules, edge-triggered: a rule fires when its condition has held for its `afterMs`, then not
// again for that lock (or master) until the condition clears. A lock's condition that was told,
// cleared and holds again within rearmMs for the same holder is the same one coming back (a
// master's blip read the lock unknown, or unreadable, for a moment): not told again. Another
// holder is news. Pure: no clock, no I/O; the caller
// feeds it the diagnoses of each changed lock, the masters' states, and ticks for conditions
// waiting out their delay.
class NotificationEvaluator
{
public:
    static constexpr qint64 rearmMs = 60'000;

    void setRules(const NotificationRules& rules) { m_rules = rules; }
    const NotificationRules& rules() const { return m_rules; }

    // `holder`: the lock's token now (a condition back for another holder is told again).
    QList<NotificationEvent> evaluateLock(const HashedKey& resource, const QList<Diagnosis>& diagnoses,
                                          qint64 nowMs, const QByteArray& holder = {});
    void lockGone(const HashedKey& resource, qint64 nowMs);
    QList<NotificationEvent> evaluateMaster(int master, const QString& name, bool up, const QString& reason,
                                            qint64 nowMs);
    // Conditions that have now held long enough.
    QList<NotificationEvent> tick(qint64 nowMs);
    // A lock let two holders in at once: told at once, once per incident, when the rule is on and
    // the incident is probable or proven (a possible one never notifies).
    std::optional<NotificationEvent> incident(const SafetyIncident& incident) const;
    // Conditions holding now (fired or waiting), for tests and the event log.
    int holdingCount() const { return int(m_holding.size()); }

    // The rule a diagnosis counts for, if any.
    static std::optional<NotificationRule> ruleFor(DiagnosisCode code);

private:
    struct Key
    {
        NotificationRule rule;
        HashedKey resource; // a view's key: each rule looked up for each view hashed its name again
        int master;
        bool operator==(const Key&) const = default;
    };
    friend size_t qHash(const Key& key, size_t seed)
    {
        return qHashMulti(seed, int(key.rule), key.resource.hash(), key.master);
    }
    struct Holding
    {
        qint64 sinceMs = 0;
        bool fired = false;
        NotificationEvent event;
        QByteArray holder;
    };
    struct Told
    {
        qint64 clearedAtMs = 0;
        QByteArray holder;
    };
    void hold(const Key& key, NotificationEvent event, qint64 nowMs, QList<NotificationEvent>& out,
              const QByteArray& holder = {});
    void fireIfDue(Holding& h, const Key& key, qint64 nowMs, QList<NotificationEvent>& out) const;
    // Stops holding `key`; one that was told is remembered for rearmMs.
    void clear(const Key& key, qint64 nowMs);

    NotificationRules m_rules;
    QHash<Key, Holding> m_holding;
    QHash<Key, Told> m_toldAndCleared; // lock conditions told, then cleared: when, and whose
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::NotificationEvent)
