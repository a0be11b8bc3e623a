// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/notificationrules.h"

class QSettings;

namespace lockscope {

// A profile's notification rules in QSettings, under its "notifications" group:
// "<rule>/enabled", "<rule>/afterSeconds" and "heldTooLongFactor" (docs/manual/stuck-locks.md,
// "Notifications").
// Missing keys keep the defaults, so profiles saved before the rules existed notify as documented.
namespace NotificationSettings {

NotificationRules read(QSettings& settings);
void write(QSettings& settings, const NotificationRules& rules);

} // namespace NotificationSettings

} // namespace lockscope
