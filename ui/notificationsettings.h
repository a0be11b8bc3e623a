#pragma once

#include "diagnosis/notificationrules.h"

class QSettings;

namespace lockscope {

// A profile's notification rules in QSettings, under its "notifications" group:
// "<rule>/enabled", "<rule>/afterSeconds" and "heldTooLongFactor" (docs/manual/stuck-locks.md,
// "Notifications").
// Missing keys keep the defaults, so profiles saved before the rules existed notify as documented.
class NotificationSettings
{
public:
    static NotificationRules read(QSettings& settings);
    static void write(QSettings& settings, const NotificationRules& rules);
};

} // namespace lockscope
