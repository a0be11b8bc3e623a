// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QThread>

#include <memory>

namespace lockscope {

// A thread that runs masters' scan workers (SCAN, keyspace events, key reads and reply parsing), so
// that a discovery over N masters gets N threads' share of the CPU, not one. Redlock sizes (3 to 7)
// get a thread per master; beyond maxThreads per process, masters share the least used threads.
// The thread is stopped and joined when its last user lets go.
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
