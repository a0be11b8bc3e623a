// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

// The server program the demo starts its masters and Sentinels with: redis-server where it is on
// the PATH, else valkey-server (a machine with only Valkey installed has no redis-server, and
// Valkey reads the same configuration), else "redis-server", whose start then fails with the
// usual "not found" message.
QString demoServerProgram();

} // namespace lockscope
