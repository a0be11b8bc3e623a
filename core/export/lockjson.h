// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "discovery/notificationmode.h"
#include "export/jsonmembers.h"
#include "monitor/failoverreport.h"
#include "monitor/lockview.h"

#include <QJsonObject>

#include <initializer_list>
#include <string>

namespace lockscope {

class MasterSet;

// The JSON shapes of `lockctl list --json` and `watch --json` (lockctl(1), "JSON OUTPUT":
// docs/man/lockctl.1), shared with the window's export. URLs never carry passwords; keys and tokens
// use escapeBytes().
namespace LockJson {

// One lock appended to `out` as JSON text, byte for byte what QJsonDocument::toJson(Compact) makes
// of the same object (members in its order, the same escapes): `list --json` streams a million locks
// without building a QJsonObject for each. `extra`: the caller's members (list's "diagnosis", watch's
// "event" and "time"), sorted by name, merged in at their places.
void appendLock(std::string& out, const LockView& view, const MasterSet& masters, qint64 nowMs,
                std::initializer_list<JsonMember> extra = {});
// A Sentinel entry adds "sentinel": true and "primary": "host:port" (null until one is known).
QJsonObject master(const MasterSet& masters, int index, NotificationMode mode);
// {"event":"failover","master":…,"from":…,"to":…,"atRisk":[…],"lost":[…],
//  "changedToken":[{"resource":…,"before":…,"after":…}]}
QJsonObject failover(const FailoverReport& report, const MasterSet& masters);

} // namespace LockJson

} // namespace lockscope
