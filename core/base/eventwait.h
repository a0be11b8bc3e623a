#pragma once

#include <functional>

namespace lockscope {

// Runs the calling thread's event loop until `done` returns true or `timeoutMs` passes; false on
// timeout. For one-shot tools (lockctl, the benchmarks) that wait for an asynchronous answer, never
// for the window's thread, which must not block.
bool runEventsUntil(const std::function<bool()>& done, int timeoutMs);

} // namespace lockscope
