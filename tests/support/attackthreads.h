// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <functional>
#include <thread>
#include <vector>

namespace lockscope::test {

// Threads that run a misbehaving client each (RawConnection) while the test thread goes on; each
// function gets the flag to stop at. Stopped and joined when it goes, so a failed check that
// returns early leaves no thread behind.
class AttackThreads
{
public:
    AttackThreads() = default;
    ~AttackThreads() { stop(); }
    AttackThreads(const AttackThreads&) = delete;
    AttackThreads& operator=(const AttackThreads&) = delete;

    void start(int count, const std::function<void(int index, const std::atomic<bool>& stop)>& run);
    void stop();

private:
    std::atomic<bool> m_stop{false};
    std::vector<std::thread> m_threads;
};

} // namespace lockscope::test
