// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/monotonicclock.h"

#include <QtGlobal>

#include <atomic>

namespace lockscope {

// Adds the CPU time this thread spends in a scope to a counter: what the flight recorder itself
// costs, measured where it runs (the monitor's thread and the writer's), not guessed from the
// difference of two noisy runs.
class CpuStopwatch
{
    Q_DISABLE_COPY_MOVE(CpuStopwatch)

public:
    explicit CpuStopwatch(std::atomic<qint64>& sink) : m_sink(sink), m_start(threadCpuNs()) {}
    ~CpuStopwatch() { m_sink += threadCpuNs() - m_start; }

private:
    std::atomic<qint64>& m_sink;
    qint64 m_start;
};

} // namespace lockscope
