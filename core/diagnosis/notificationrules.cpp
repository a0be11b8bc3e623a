// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/notificationrules.h"

namespace lockscope {

const std::array<NotificationRule, NotificationRules::ruleCount>& NotificationRules::all()
{
    static const std::array<NotificationRule, ruleCount> rules{
        NotificationRule::Stuck,     NotificationRule::HeldTooLong, NotificationRule::QuorumLost,
        NotificationRule::Contested, NotificationRule::MasterDown,  NotificationRule::DoubleGrant};
    return rules;
}

QString notificationRuleName(NotificationRule rule)
{
    switch (rule) {
    case NotificationRule::Stuck:
        return QStringLiteral("stuck");
    case NotificationRule::HeldTooLong:
        return QStringLiteral("held-too-long");
    case NotificationRule::QuorumLost:
        return QStringLiteral("quorum-lost");
    case NotificationRule::Contested:
        return QStringLiteral("contested");
    case NotificationRule::MasterDown:
        return QStringLiteral("master-down");
    case NotificationRule::DoubleGrant:
        return QStringLiteral("double-grant");
    }
    return QString();
}

std::optional<NotificationRule> notificationRuleFromName(const QString& name)
{
    for (NotificationRule r : NotificationRules::all())
        if (notificationRuleName(r) == name)
            return r;
    return std::nullopt;
}

} // namespace lockscope
