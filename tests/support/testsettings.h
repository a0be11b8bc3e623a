// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope::test {

// The organisation and application names settings are kept under ("LockScopeTests", `application`).
void nameTestApplication(const QString& application);

// Points QSettings (INI format, user scope) into `directory` under this application name and starts
// it empty: a window test never reads or writes the user's real settings, nor a previous test
// function's.
void useTestSettings(const QString& directory, const QString& application);

} // namespace lockscope::test
