// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/lockview.h"

namespace lockscope::test {

// A lock view of `resource` held by `token` (its owner too) on the one master there is.
LockView heldView(const QByteArray& resource, const QByteArray& token);
// A lock view as the monitor hands it on: held by `token` for `owner`, with `validityMs` left as
// computed now.
LockView heldNow(const QByteArray& resource, const QByteArray& token, const QString& owner = {},
                 qint64 validityMs = 60'000);

} // namespace lockscope::test
