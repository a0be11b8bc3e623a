#pragma once

#include "lockview.h"
#include "notificationmode.h"

#include <QJsonObject>

namespace lockscope {

class MasterSet;

// The JSON shapes of `lockctl list --json` (README "JSON output"), shared with the window's export.
// URLs never carry passwords; keys and tokens use escapeBytes().
class LockJson
{
public:
    static QJsonObject lock(const LockView& view, const MasterSet& masters, qint64 nowMs);
    static QJsonObject master(const MasterSet& masters, int index, NotificationMode mode);
};

} // namespace lockscope
