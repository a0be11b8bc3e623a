// SPDX-License-Identifier: Apache-2.0
#include "discovery/scanthread.h"

#include <QMutex>

#include <vector>

namespace lockscope {

namespace {

// The process's scan threads, held weakly: each lives as long as a worker uses it.
struct Registry
{
    QMutex mutex;
    std::vector<std::weak_ptr<ScanThread>> threads;
};

Registry& registry()
{
    static Registry r;
    return r;
}

} // namespace

ScanThread::ScanThread()
{
    m_thread.setObjectName(QStringLiteral("lockscope-scan"));
    m_thread.start();
}

ScanThread::~ScanThread()
{
    // Workers were deleted in the thread before their last reference went; deferred deletions
    // still queued are run by the thread itself as it finishes.
    m_thread.quit();
    m_thread.wait();
}

std::shared_ptr<ScanThread> ScanThread::acquire()
{
    Registry& r = registry();
    const QMutexLocker lock(&r.mutex);
    std::shared_ptr<ScanThread> leastUsed;
    long fewestUsers = 0;
    size_t live = 0;
    for (auto it = r.threads.begin(); it != r.threads.end();) {
        std::shared_ptr<ScanThread> t = it->lock();
        if (!t) {
            it = r.threads.erase(it);
            continue;
        }
        ++live;
        // One reference is `t` itself.
        if (!leastUsed || t.use_count() - 1 < fewestUsers) {
            fewestUsers = t.use_count() - 1;
            leastUsed = t;
        }
        ++it;
    }
    if (leastUsed && live >= size_t(maxThreads))
        return leastUsed;
    std::shared_ptr<ScanThread> fresh(new ScanThread());
    r.threads.push_back(fresh);
    return fresh;
}

} // namespace lockscope
