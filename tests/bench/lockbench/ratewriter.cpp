// SPDX-License-Identifier: Apache-2.0
#include "bench/lockbench/ratewriter.h"

#include "base/monotonicclock.h"
#include "bench/lockbench/benchargs.h"
#include "config/configloader.h"

#include <QRandomGenerator>
#include <QString>

#include <hiredis/hiredis.h>

#include <chrono>
#include <ctime>
#include <thread>

namespace lockbench {

RateWriter::RateWriter(std::vector<std::pair<QByteArray, int>> targets, int rate, int seconds, int resources)
    : m_targets(std::move(targets)), m_rate(rate), m_seconds(seconds), m_resources(resources)
{
    m_writes.reserve(size_t(rate) * size_t(seconds));
}

void RateWriter::flushAll(const std::vector<std::pair<QByteArray, int>>& targets)
{
    for (const auto& t : targets) {
        redisContext* c = redisConnect(t.first.constData(), t.second);
        if (c && !c->err)
            freeReplyObject(redisCommand(c, "FLUSHALL"));
        redisFree(c);
    }
}

bool RateWriter::mastersFrom(const QStringList& args, lockscope::LockScopeConfig* config,
                             std::vector<std::pair<QByteArray, int>>* targets)
{
    for (const QString& url : BenchArgs(args).values(QStringLiteral("-m"))) {
        lockscope::Result<lockscope::ConnectionOptions> m =
            lockscope::ConfigLoader::masterFromUrl(url, {}, 5000);
        if (!m)
            return false;
        config->masters << *m;
        targets->emplace_back(m->url.host().toUtf8(), m->url.port());
    }
    config->monitor.patterns = {"bench:*"};
    config->monitor.reconcileIntervalMs = 3600000;
    return !config->masters.isEmpty();
}

void RateWriter::run(const std::atomic<bool>& stop)
{
    using lockscope::monotonicNs;
    timespec cpuStart{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpuStart);
    std::vector<redisContext*> contexts;
    for (const auto& t : m_targets)
        contexts.push_back(redisConnect(t.first.constData(), t.second));
    std::vector<int> pending(contexts.size(), 0);
    QRandomGenerator rng(7);
    const qint64 start = monotonicNs();
    const qint64 total = qint64(m_rate) * m_seconds;
    qint64 i = 0;
    while (i < total && !stop) {
        // Everything due by now goes out pipelined, so a slow reply never holds back the pace.
        const qint64 now = monotonicNs();
        for (; i < total && start + i * 1000000000LL / m_rate <= now; ++i) {
            const int c = int(rng.bounded(int(contexts.size())));
            const int k = int(rng.bounded(m_resources));
            const QByteArray key = QByteArray("bench:") + QByteArray::number(k);
            const qint64 ns = monotonicNs();
            const QByteArray value = QByteArray("t") + QByteArray::number(ns);
            redisAppendCommand(contexts[size_t(c)], "SET %b %b PX 30000", key.constData(), size_t(key.size()),
                               value.constData(), size_t(value.size()));
            m_writes.push_back({c, k, ns});
            ++pending[size_t(c)];
        }
        for (size_t c = 0; c < contexts.size(); ++c)
            for (; pending[c] > 0; --pending[c]) {
                void* reply = nullptr;
                if (redisGetReply(contexts[c], &reply) == REDIS_OK &&
                    static_cast<redisReply*>(reply)->type == REDIS_REPLY_STATUS)
                    ++m_written;
                else
                    ++m_errors;
                if (reply)
                    freeReplyObject(reply);
            }
        // Sleeping, not spinning: on a two-core machine a spinning writer would starve the
        // servers and the monitor it is measuring.
        if (const qint64 wait = start + i * 1000000000LL / m_rate - monotonicNs(); wait > 0)
            std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
    }
    for (redisContext* c : contexts)
        redisFree(c);
    timespec cpuEnd{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpuEnd);
    m_cpuNs = (cpuEnd.tv_sec - cpuStart.tv_sec) * 1000000000LL + (cpuEnd.tv_nsec - cpuStart.tv_nsec);
}

} // namespace lockbench
