#pragma once

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

    bool isReadOnly() const { return readOnly || readOnlyLocked; }
};

} // namespace lockscope
