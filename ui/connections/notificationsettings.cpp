// SPDX-License-Identifier: Apache-2.0
#include "connections/notificationsettings.h"

#include <QSettings>

namespace lockscope {

NotificationRules NotificationSettings::read(QSettings& settings)
{
    NotificationRules rules;
    settings.beginGroup(QStringLiteral("notifications"));
    for (NotificationRule r : NotificationRules::all()) {
        NotificationRules::Rule& rule = rules.rule(r);
        settings.beginGroup(notificationRuleName(r));
        rule.enabled = settings.value(QStringLiteral("enabled"), rule.enabled).toBool();
        rule.afterMs = qint64(
            settings.value(QStringLiteral("afterSeconds"), double(rule.afterMs) / 1000).toDouble() * 1000);
        settings.endGroup();
    }
    const double factor =
        settings.value(QStringLiteral("heldTooLongFactor"), rules.heldTooLongFactor).toDouble();
    if (factor > 0)
        rules.heldTooLongFactor = factor;
    settings.endGroup();
    return rules;
}

void NotificationSettings::write(QSettings& settings, const NotificationRules& rules)
{
    settings.beginGroup(QStringLiteral("notifications"));
    for (NotificationRule r : NotificationRules::all()) {
        settings.beginGroup(notificationRuleName(r));
        settings.setValue(QStringLiteral("enabled"), rules.rule(r).enabled);
        settings.setValue(QStringLiteral("afterSeconds"), double(rules.rule(r).afterMs) / 1000);
        settings.endGroup();
    }
    settings.setValue(QStringLiteral("heldTooLongFactor"), rules.heldTooLongFactor);
    settings.endGroup();
}

} // namespace lockscope
