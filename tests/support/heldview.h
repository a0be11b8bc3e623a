// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"

namespace lockscope::test {

// A lock view of `resource` held by `token` (its owner too) on the one master there is.
LockView heldView(const QByteArray& resource, const QByteArray& token);

} // namespace lockscope::test
