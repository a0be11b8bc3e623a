// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

// One text cell of an exported CSV file (RFC 4180 quoting). Lock names and owners come from whoever
// wrote the keys, so a cell that a spreadsheet would run as a formula (=, +, -, @ first) is prefixed
// with an apostrophe: opening an export must never execute what a stranger put in a key name.
QString csvField(const QString& text);

} // namespace lockscope
