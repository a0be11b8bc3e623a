// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"

#include <QByteArray>
#include <QStringList>

#include <atomic>
#include <utility>
#include <vector>

namespace lockbench {

// The lock changes a benchmark makes: SET "bench:<k>" "t<ns>" PX 30000 on a random master and a
// random key, --rate per second for --seconds, pipelined, on a thread of its own (hiredis, blocking),
// sleeping between due writes so that on a small machine it does not starve what it measures.
class RateWriter
{
public:
    struct Write
    {
        int master = 0;
        int key = 0;
        qint64 ns = 0; // monotonic; the value written is "t<ns>"
    };

    RateWriter(std::vector<std::pair<QByteArray, int>> targets, int rate, int seconds, int resources);

    // Runs on the calling thread until done or `stop`; fills writes() and the counters.
    void run(const std::atomic<bool>& stop);
    const std::vector<Write>& writes() const { return m_writes; }
    qint64 written() const { return m_written; }
    qint64 errors() const { return m_errors; }
    // CPU time the writing thread used (so a benchmark can leave it out of the process's own).
    qint64 cpuNs() const { return m_cpuNs; }

    // FLUSHALL on every target: values of an earlier run would count in this one.
    static void flushAll(const std::vector<std::pair<QByteArray, int>>& targets);

    // The benchmark's masters from its -m URLs: a configuration watching "bench:*" (with no
    // reconciliation pass to disturb the measure) and the host/port pairs the writer sets keys on.
    // False when a URL is bad or there is none.
    static bool mastersFrom(const QStringList& args, lockscope::LockScopeConfig* config,
                            std::vector<std::pair<QByteArray, int>>* targets);

private:
    std::vector<std::pair<QByteArray, int>> m_targets;
    int m_rate;
    int m_seconds;
    int m_resources;
    std::vector<Write> m_writes;
    std::atomic<qint64> m_written{0};
    std::atomic<qint64> m_errors{0};
    qint64 m_cpuNs = 0;
};

} // namespace lockbench
