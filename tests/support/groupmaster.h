// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"

#include <QString>

namespace lockscope::test {

// The master entry for a group URL (redis-sentinel://, redis-cluster://, ...), made as the
// configuration loader makes it. A URL a test got wrong is fatal, not a failed check.
ConnectionOptions groupMaster(const QString& url, int timeoutMs = 1000);

} // namespace lockscope::test
