// SPDX-License-Identifier: Apache-2.0
#include "support/attackthreads.h"

namespace lockscope::test {

void AttackThreads::start(int count, const std::function<void(int, const std::atomic<bool>&)>& run)
{
    for (int i = 0; i < count; ++i)
        m_threads.emplace_back([this, run, i] { run(i, m_stop); });
}

void AttackThreads::stop()
{
    m_stop = true;
    for (std::thread& t : m_threads)
        t.join();
    m_threads.clear();
}

} // namespace lockscope::test
