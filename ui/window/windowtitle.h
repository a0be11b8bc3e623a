// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

// The main window's title: the profile once, how many masters, read-only; the application's name
// once, last, as the platform shows it (Qt appends the display name to any title that does not
// already end with it, so a title that began with "LockScope" read "LockScope — … — LockScope").
namespace WindowTitle {

QString text(const QString& profile, int masters, bool readOnly, bool production = false);
QString applicationName();

} // namespace WindowTitle

} // namespace lockscope
