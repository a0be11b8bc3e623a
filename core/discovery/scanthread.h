// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QThread>

#include <memory>

namespace lockscope {

// A thread that runs masters' scan workers (SCAN, keyspace events, key reads and reply parsing), so
// that a discovery over N masters gets N threads' share of the CPU, not one. Redlock sizes (3 to 7)
// get a thread per master; beyond maxThreads per process, masters share the least used threads.
// The thread is stopped and joined when its last user lets go.
//
// Tried and left out: two threads for five masters on two cores (ui-bench.sh, 100k locks, --scan-rate
// max, four pairs with the same build). The monitor kept up with fewer workers (the first picture
// 267 ms after the scans instead of 646), but the scans took that much longer and the GUI and
// monitor threads used 24 % and 14 % more CPU: the first view 1.35x the bare loop against 1.33x.
class ScanThread final
{
    Q_DISABLE_COPY_MOVE(ScanThread)

public:
    static constexpr int maxThreads = 8;

    // A running thread for one more worker.
    static std::shared_ptr<ScanThread> acquire();
    ~ScanThread();

    QThread* thread() { return &m_thread; }

private:
    ScanThread();

    QThread m_thread;
};

} // namespace lockscope
