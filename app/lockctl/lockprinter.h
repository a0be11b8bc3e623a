#pragma once

#include "monitor/lockview.h"

#include <QStringList>

namespace lockscope {
class MasterSet;
}

namespace lockctl {

// The text forms of a lock shared by `list` and `watch`.
class LockPrinter
{
public:
    static QStringList header();
    static QStringList row(const lockscope::LockView& view, const lockscope::MasterSet& masters,
                           qint64 nowMs);
    // One dot per master: '●' holds the majority token, '○' absent, '◐' another token, '?' unreachable.
    static QString masterDots(const lockscope::LockView& view);
};

} // namespace lockctl
