// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "config/lockscopeconfig.h"

#include <QStringList>

namespace lockscope {

// The configuration the demo watches its own cluster with: live, with quick timeouts so that an
// outage shows at once.
Result<LockScopeConfig> demoConfig(const QStringList& urls);

} // namespace lockscope
