// SPDX-License-Identifier: Apache-2.0
#include "connection/dispatchwindow.h"

#include "connection/redisconnection.h"

namespace lockscope {

DispatchWindow::ThreadState& DispatchWindow::state()
{
    // Per thread: each connection lives on one thread, and so do the callbacks that write to it.
    thread_local ThreadState s;
    return s;
}

DispatchWindow::DispatchWindow()
{
    ++state().depth;
}

DispatchWindow::~DispatchWindow()
{
    ThreadState& s = state();
    if (--s.depth > 0)
        return;
    // A flush may deliver replies at once (TLS), whose callbacks hold more connections: taken out
    // and repeated until none is left.
    while (!s.held.empty()) {
        const std::vector<QPointer<RedisConnection>> held = std::exchange(s.held, {});
        for (const QPointer<RedisConnection>& connection : held)
            if (connection)
                connection->flushHeld();
    }
}

bool DispatchWindow::isOpen()
{
    return state().depth > 0;
}

void DispatchWindow::hold(RedisConnection* connection)
{
    state().held.emplace_back(connection);
}

} // namespace lockscope
