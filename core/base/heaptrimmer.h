// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace lockscope {

// Gives the free pages inside malloc's heap back to the system, now and then, on a thread of its
// own (RAII: it starts with the object and is stopped and joined with it).
//
// glibc returns memory on its own only from the top of a heap. The window's threads free a great
// deal in the middle of theirs (the batches that carry a first pass's keys from the scan workers to
// the monitor and on to the GUI, the old tables a growing hash leaves), and those pages stay
// resident until malloc_trim() walks the free lists. Over 100k locks on five masters (ui-bench.sh,
// --scan-rate max, the same build with and without LOCKSCOPE_HEAP_TRIM=0) the peak RSS went from a
// median of 229.3 MiB to 223.7 over six pairs and from 228.0 to 220.2 over four (less in every
// pair), with 30 to 41 trims giving back 35 to 48 MiB in all; the first view's time and CPU moved
// with the machine, not with the trims (every thread's CPU up or down alike). With a million
// locks under 200k TTL writes a second (ui-bench.sh --million, two pairs) 1,179 and 1,181 MiB
// against 1,208 and 1,225 (its budget: 1,229), the longest trim 22 to 30 ms, the stalls while
// scrolling and filtering within those of the runs without it. `lockctl serve` (serve-bench.sh,
// 100k locks, 1000 changing hands a second, two pairs): 139 and 141 MiB at most against 145 and 144.
//
// A trim holds each arena's lock while it walks it (up to 10 ms at 200 ms apart): so it runs at
// the process's normal priority, to be over soon, and only as often as the process's memory moves.
// After a trim that gave back at least `worthBytes`, or when the resident size moved by that much
// since the last, the next comes `shortest` later; otherwise twice as late as the last, up to
// `longest`: an idle window trims a few times a minute. (Backing off on what a trim gave back
// alone, 7 to 18 trims came in a first pass, whose heap grows between them.) Does nothing where
// malloc is not glibc's (a sanitizer's, another libc), or with LOCKSCOPE_HEAP_TRIM=0 in the
// environment (to measure what it is worth, or to rule it out).
class HeapTrimmer final
{
public:
    struct Schedule
    {
        std::chrono::milliseconds shortest{200};
        std::chrono::milliseconds longest{8000};
        qint64 worthBytes = qint64(1) << 20;
    };

    HeapTrimmer() : HeapTrimmer(Schedule{}) {}
    explicit HeapTrimmer(Schedule schedule);
    ~HeapTrimmer();
    Q_DISABLE_COPY_MOVE(HeapTrimmer)

    // Whether trimming does anything here (glibc's own malloc).
    static bool isAvailable();
    // Whether this one trims: available, and not turned off by LOCKSCOPE_HEAP_TRIM=0.
    bool isRunning() const { return m_thread.joinable(); }
    // One trim now, on the calling thread: the resident bytes the process had less after it
    // (0 where it is not available; other threads may allocate meanwhile, so a floor of 0).
    static qint64 trimNow();
    // The wait before the next trim, after one that gave back `released` bytes following a wait of
    // `last`, during which the resident size moved by `moved` bytes (either way).
    static std::chrono::milliseconds nextWait(std::chrono::milliseconds last, qint64 released, qint64 moved,
                                              const Schedule& schedule);

    // So far, from this trimmer's thread.
    qint64 trims() const { return m_trims.load(std::memory_order_relaxed); }
    qint64 releasedBytes() const { return m_released.load(std::memory_order_relaxed); }
    // The longest trim's duration: how long it may have held an arena's lock.
    qint64 longestTrimUs() const { return m_longestUs.load(std::memory_order_relaxed); }

private:
    struct Resident
    {
        qint64 before = -1; // bytes; -1: unknown
        qint64 after = -1;

        bool known() const { return before >= 0 && after >= 0; }
        // What the trim gave back, never below 0 (other threads allocate meanwhile); 0: unknown.
        qint64 released() const { return known() ? qMax<qint64>(0, before - after) : 0; }
    };
    static Resident trim();
    void run();

    const Schedule m_schedule;
    std::atomic<qint64> m_trims{0};
    std::atomic<qint64> m_released{0};
    std::atomic<qint64> m_longestUs{0}; // written by its thread only
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false; // under m_mutex
    std::thread m_thread;    // last: started once everything it reads is made
};

} // namespace lockscope
