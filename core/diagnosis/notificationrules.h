// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QList>
#include <QString>

#include <array>
#include <optional>

namespace lockscope {

// What a desktop notification can be raised for (docs/manual/stuck-locks.md, "Notifications").
enum class NotificationRule
{
    Stuck,       // a lock with no expiry (or a legacy timestamp past)
    HeldTooLong, // held for more than N × its lease
    QuorumLost,  // no token on enough masters
    Contested,   // different tokens on different masters
    MasterDown,  // a master cannot be reached
    DoubleGrant, // a lock let two holders in at once (a probable or proven incident)
};

// "stuck", "held-too-long", "quorum-lost", "contested", "master-down", "double-grant": the names in
// the settings.
QString notificationRuleName(NotificationRule rule);
std::optional<NotificationRule> notificationRuleFromName(const QString& name);

// Each rule on or off, and how long its condition must hold before it notifies, per profile.
struct NotificationRules
{
    struct Rule
    {
        bool enabled = true;
        qint64 afterMs = 0; // the condition held this long (a Redlock acquire is briefly partial)

        bool operator==(const Rule&) const = default;
    };

    static constexpr int ruleCount = 6;
    static const std::array<NotificationRule, ruleCount>& all();

    std::array<Rule, ruleCount> rules = {Rule{true, 10000}, Rule{true, 0},     Rule{true, 5000},
                                         Rule{true, 2000},  Rule{true, 10000}, Rule{true, 0}};
    // Held too long: more than this many times its lease (DiagnosisSettings::heldTooLongFactor).
    double heldTooLongFactor = 10;

    const Rule& rule(NotificationRule r) const { return rules.at(size_t(r)); }
    Rule& rule(NotificationRule r) { return rules.at(size_t(r)); }
    bool operator==(const NotificationRules&) const = default;
};

} // namespace lockscope
