// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

namespace lockscope {

// One thing a simulated client does: take the lock, "work" while holding it, write to the fenced
// storage, then release it or let it expire.
struct DemoTask
{
    QByteArray resource;
    QByteArray counterKey; // the fencing counter's key
    qint64 ttlMs = 4000;
    qint64 workMs = 1000;
    // A stop-the-world pause (a GC, a VM migration) after the validity check and before the write:
    // the client then writes with the fencing number it still believes valid.
    qint64 pauseBeforeWriteMs = 0;
    qint64 keepTryingMs = 0; // a busy or unreachable lock is tried again until this much time has passed
    bool release = true;     // false: stop using it and let the TTL end it
};

} // namespace lockscope
