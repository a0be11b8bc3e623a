// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"

#include <QStringList>

namespace lockctl {

class TerminalColor;

// The text forms of a lock shared by `list` and `watch`.
namespace LockPrinter {

QStringList header();
constexpr qsizetype statusColumn = 1; // STATUS, in header() and row()
QStringList row(const lockscope::LockView& view, qint64 nowMs);
// The STATUS cell of row(), coloured roughly as the window colours the status (held green,
// partial amber, contested magenta, stuck red, unknown grey; "at risk" bold red).
QString paintedStatus(const lockscope::LockView& view, const TerminalColor& color);
// One dot per master: '●' holds the majority token, '○' absent, '◐' another token, '?' unreachable.
QString masterDots(const lockscope::LockView& view);

} // namespace LockPrinter

} // namespace lockctl
