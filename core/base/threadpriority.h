// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace lockscope {

// The calling thread's scheduling weight. On Linux the nice value is per thread (QThread::setPriority
// cannot express it under SCHED_OTHER), so a worker started on behalf of a thread that yields to the
// GUI must be told to yield as well; elsewhere these do nothing.
namespace ThreadPriority {

// The calling thread's nice value (0 where there is no such thing).
int currentNice();
// Lowers the calling thread's priority to at least `nice`. Never raises it: that needs privilege.
void lowerTo(int nice);

} // namespace ThreadPriority

} // namespace lockscope
