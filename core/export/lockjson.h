#pragma once

#include "discovery/notificationmode.h"
#include "monitor/failoverreport.h"
#include "monitor/lockview.h"

#include <QJsonObject>

namespace lockscope {

class MasterSet;

// The JSON shapes of `lockctl list --json` (lockctl(1), "JSON OUTPUT": docs/man/lockctl.1), shared with
// the window's export.
// URLs never carry passwords; keys and tokens use escapeBytes().
class LockJson
{
public:
    static QJsonObject lock(const LockView& view, const MasterSet& masters, qint64 nowMs);
    // A Sentinel entry adds "sentinel": true and "primary": "host:port" (null until one is known).
    static QJsonObject master(const MasterSet& masters, int index, NotificationMode mode);
    // {"event":"failover","master":…,"from":…,"to":…,"atRisk":[…],"lost":[…],
    //  "changedToken":[{"resource":…,"before":…,"after":…}]}
    static QJsonObject failover(const FailoverReport& report, const MasterSet& masters);
};

} // namespace lockscope
