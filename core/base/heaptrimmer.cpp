// SPDX-License-Identifier: Apache-2.0
#include "base/heaptrimmer.h"

#include "base/filedescriptor.h"

#include <algorithm>
#include <cstdlib>

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define LOCKSCOPE_HEAP_TRIM 1
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <unistd.h>
#endif

namespace lockscope {

namespace {

#ifdef LOCKSCOPE_HEAP_TRIM
// The process's resident bytes (/proc/self/statm's second field, in pages); -1 when unreadable.
qint64 residentBytes()
{
    const FileDescriptor statm(::open("/proc/self/statm", O_RDONLY | O_CLOEXEC));
    if (!statm.isValid())
        return -1;
    char text[128];
    const ssize_t n = ::read(statm.get(), text, sizeof text - 1);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    const char* p = text;
    while (*p != '\0' && *p != ' ')
        ++p; // past the size
    qint64 pages = 0;
    for (++p; *p >= '0' && *p <= '9'; ++p)
        pages = pages * 10 + (*p - '0');
    return pages * qint64(::sysconf(_SC_PAGESIZE));
}
#endif

} // namespace

HeapTrimmer::HeapTrimmer(Schedule schedule) : m_schedule(schedule)
{
    if (isAvailable() && qgetenv("LOCKSCOPE_HEAP_TRIM") != "0")
        m_thread = std::thread([this] { run(); });
}

HeapTrimmer::~HeapTrimmer()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

bool HeapTrimmer::isAvailable()
{
#ifdef LOCKSCOPE_HEAP_TRIM
    return true;
#else
    return false;
#endif
}

HeapTrimmer::Resident HeapTrimmer::trim()
{
    Resident r;
#ifdef LOCKSCOPE_HEAP_TRIM
    r.before = residentBytes();
    ::malloc_trim(0);
    r.after = residentBytes();
#endif
    return r;
}

qint64 HeapTrimmer::trimNow()
{
    return trim().released();
}

std::chrono::milliseconds HeapTrimmer::nextWait(std::chrono::milliseconds last, qint64 released, qint64 moved,
                                                const Schedule& schedule)
{
    if (released >= schedule.worthBytes || moved >= schedule.worthBytes)
        return schedule.shortest;
    return std::clamp(2 * last, schedule.shortest, schedule.longest);
}

void HeapTrimmer::run()
{
#ifdef LOCKSCOPE_HEAP_TRIM
    pthread_setname_np(pthread_self(), "heap trim"); // its CPU, apart in a profile or `top -H`
#endif
    std::chrono::milliseconds wait = m_schedule.shortest;
    qint64 lastAfter = -1;
    std::unique_lock lock(m_mutex);
    while (!m_wake.wait_for(lock, wait, [this] { return m_stopping; })) {
        lock.unlock();
        const auto start = std::chrono::steady_clock::now();
        const Resident r = trim();
        const qint64 us =
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start)
                .count();
        if (us > m_longestUs.load(std::memory_order_relaxed))
            m_longestUs.store(us, std::memory_order_relaxed);
        const qint64 released = r.released();
        const qint64 moved = r.known() && lastAfter >= 0 ? std::abs(r.before - lastAfter) : 0;
        lastAfter = r.after;
        m_trims.fetch_add(1, std::memory_order_relaxed);
        m_released.fetch_add(released, std::memory_order_relaxed);
        wait = nextWait(wait, released, moved, m_schedule);
        lock.lock();
    }
}

} // namespace lockscope
