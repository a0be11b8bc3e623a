// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/scanpattern.h"
#include "config/scanrate.h"
#include "connections/masterentry.h"
#include "connections/teamdatabaseentry.h"
#include "diagnosis/notificationrules.h"

#include <QList>

#include <optional>

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
    // Production: the window opens it read-only, writes are unlocked for a session at a time, and a
    // force-release asks for the resource's name (LaunchConfig::unlocked, docs/manual/safety.md).
    bool production = false;
    // The keys its masters keep locks under, each with its mode. Empty: the patterns the window was
    // started with (--config, or the defaults). --pattern / --discover on the command line win
    // (LaunchConfig::combine).
    QList<ScanPattern> patterns = {};
    // How fast its masters may be scanned (none: as the window was started, --scan-rate or "auto").
    // --scan-rate on the command line wins (LaunchConfig::combine).
    std::optional<ScanRate> scanRate = {};
    // Which desktop notifications the window raises for this profile's locks, and when.
    NotificationRules notifications = {};
    // Where writes from this profile are audited besides this host's file (none: only there).
    TeamDatabaseEntry team = {};

    bool isReadOnly() const { return readOnly || readOnlyLocked; }
};

} // namespace lockscope
