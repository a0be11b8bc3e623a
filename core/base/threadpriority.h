#pragma once

namespace lockscope {

// The calling thread's scheduling weight. On Linux the nice value is per thread (QThread::setPriority
// cannot express it under SCHED_OTHER), so a worker started on behalf of a thread that yields to the
// GUI must be told to yield as well; elsewhere these do nothing.
class ThreadPriority final
{
public:
    ThreadPriority() = delete;

    // The calling thread's nice value (0 where there is no such thing).
    static int currentNice();
    // Lowers the calling thread's priority to at least `nice`. Never raises it: that needs privilege.
    static void lowerTo(int nice);
};

} // namespace lockscope
