// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/processrun.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace lockscope::test {

// The lockctl built next to the tests (buildPath()).
QString lockctlPath();

// One finished lockctl run, as a test sees it.
using LockctlRun = ProcessRun;

// {"--password-env", "LOCKSCOPE_TEST_PASSWORD"}: lockctl then takes the fixture servers' password
// (testPassword()) from the environment runLockctl gives it, and the URLs given with -m leave it out
// (url(false)), so that it never shows in the process list.
QStringList testPasswordArgs();

// Runs lockctl with standard input closed (a pipe, never a terminal), the fixture password in its
// environment as LOCKSCOPE_TEST_PASSWORD (testPasswordVar) for --password-env. This thread's event loop keeps
// running while it waits, so peers living on it (a test's fake server) still answer.
// `environment` replaces that environment (the fixture password is then the caller's business).
LockctlRun runLockctl(const QStringList& args, int timeoutMs = 30000,
                      const QProcessEnvironment& environment = {});

// `lockctl --json --timeout-ms 1000 <args>`, its output as an object (empty, with a warning that
// shows the run, when it printed none); `code` gets the exit code.
QJsonObject runLockctlJson(const QStringList& args, int* code, int timeoutMs = 60000);

} // namespace lockscope::test
