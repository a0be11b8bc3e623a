#pragma once

#include "monitor/lockview.h"

#include <QStringList>

namespace lockscope {
class MasterSet;
}

namespace lockctl {

class TerminalColor;

// The text forms of a lock shared by `list` and `watch`.
class LockPrinter
{
public:
    static QStringList header();
    static constexpr qsizetype statusColumn = 1; // STATUS, in header() and row()
    static QStringList row(const lockscope::LockView& view, const lockscope::MasterSet& masters,
                           qint64 nowMs);
    // The STATUS cell of row(), coloured roughly as the window colours the status (held green,
    // partial amber, contested magenta, stuck red, unknown grey; "at risk" bold red).
    static QString paintedStatus(const lockscope::LockView& view, const TerminalColor& color);
    // One dot per master: '●' holds the majority token, '○' absent, '◐' another token, '?' unreachable.
    static QString masterDots(const lockscope::LockView& view);
};

} // namespace lockctl
