// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>

namespace lockscope {

// Runs the calling thread's event loop until `done` returns true or `timeoutMs` passes; false on
// timeout. For one-shot tools (lockctl, the benchmarks) that wait for an asynchronous answer, never
// for the window's thread, which must not block. It sleeps until an event arrives and looks at
// `done` after each: whatever makes `done` true must arrive as an event on this thread (a signal
// handler writes to a self-pipe, another thread posts or emits a queued signal), or it is seen
// only at the deadline.
bool runEventsUntil(const std::function<bool()>& done, int timeoutMs);

} // namespace lockscope
