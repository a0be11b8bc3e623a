// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

// Where the window keeps its settings (profiles, layout): $XDG_CONFIG_HOME/lockscope/lockscope.conf,
// the directory the XDG base-directory rules and docs/manual/configuration.md name. Qt derives that
// directory from the organisation name, so it is "lockscope" too; releases before this kept the file
// under "LockScope/", and apply() moves it once, so nobody loses their profiles.
namespace SettingsLocation {

// Call once, before the first QSettings, after the QApplication exists.
void apply();
// The settings file as apply() leaves it (for messages and tests).
QString filePath();
// Moves <configHome>/LockScope/lockscope.conf to <configHome>/lockscope/lockscope.conf when
// only the old one exists. Returns false only when a move was needed and failed.
bool migrate(const QString& configHome);

} // namespace SettingsLocation

} // namespace lockscope
