#pragma once

#include "config/scanpattern.h"
#include "diagnosis/notificationrules.h"
#include "masterentry.h"

#include <QList>

namespace lockscope {

// A named set of masters that the window can open together.
struct ConnectionProfile
{
    QString name;
    QList<MasterEntry> masters;
    bool readOnly = false;
    // Read-only for good: the window can set this but never clear it (ProfileStore keeps it once
    // saved); only editing the settings file by hand lifts it. Implies readOnly.
    bool readOnlyLocked = false;
    // The keys its masters keep locks under, each with its mode. Empty: the patterns the window was
    // started with (--config, or the defaults). --pattern / --discover on the command line win
    // (LaunchConfig::combine).
    QList<ScanPattern> patterns = {};
    // Which desktop notifications the window raises for this profile's locks, and when.
    NotificationRules notifications = {};

    bool isReadOnly() const { return readOnly || readOnlyLocked; }
};

} // namespace lockscope
