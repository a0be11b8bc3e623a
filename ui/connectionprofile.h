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
};

} // namespace lockscope
