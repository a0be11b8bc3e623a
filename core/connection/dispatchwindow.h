// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QPointer>

#include <vector>

namespace lockscope {

class RedisConnection;

// While a connection hands a read's replies to their callbacks, the commands those callbacks write
// to an idle connection (the release after a Redlock quorum, the next acquire, the next SCAN page)
// are held and leave together when the outermost dispatch on this thread ends: one write per
// connection per read instead of one for the first command and another for the rest. Nothing waits
// longer than the callbacks of that one read; a held connection also has its flush timer running,
// so a callback that runs a nested event loop still sees its commands leave.
class DispatchWindow final
{
    Q_DISABLE_COPY_MOVE(DispatchWindow)

public:
    DispatchWindow();
    ~DispatchWindow();

    // Whether a dispatch is under way on this thread.
    static bool isOpen();
    // `connection` has commands to flush at the end of the outermost dispatch.
    static void hold(RedisConnection* connection);

private:
    struct ThreadState
    {
        int depth = 0;
        std::vector<QPointer<RedisConnection>> held;
    };
    static ThreadState& state();
};

} // namespace lockscope
