// SPDX-License-Identifier: Apache-2.0
#include "support/heldview.h"

namespace lockscope::test {

LockView heldView(const QByteArray& resource, const QByteArray& token)
{
    LockView v;
    v.resource = resource;
    v.token = token;
    v.owner = QString::fromLatin1(token);
    v.status = LockStatus::Held;
    v.holding = v.needed = v.total = 1;
    return v;
}

} // namespace lockscope::test
