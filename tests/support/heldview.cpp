// SPDX-License-Identifier: Apache-2.0
#include "support/heldview.h"

#include "base/monotonicclock.h"

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

LockView heldNow(const QByteArray& resource, const QByteArray& token, const QString& owner, qint64 validityMs)
{
    LockView v = heldView(resource, token);
    v.owner = owner;
    v.validityMs = validityMs;
    v.computedAtMs = monotonicMs();
    return v;
}

} // namespace lockscope::test
