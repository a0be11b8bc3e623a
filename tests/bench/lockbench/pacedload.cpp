// SPDX-License-Identifier: Apache-2.0
// `lockbench paced-load`: the other clients of a master, as the tracer's benchmark (issue #43) needs
// them: --rate commands a second (GET and SET of random keys, never a lock's) for --seconds, over
// --connections connections, each on a thread of its own sending what is due pipelined and sleeping
// between; every command's latency is from when it was due to its reply, so a master that falls
// behind shows in the p99 (no coordinated omission). Prints one JSON line: sent, answered, errors,
// the rate achieved and the latency percentiles.
#include "base/monotonicclock.h"
#include "bench/lockbench/benchargs.h"
#include "bench/lockbench/benchmark.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

#include <hiredis/hiredis.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace lockbench {

namespace {

struct LoadResult
{
    qint64 sent = 0;
    qint64 errors = 0;
    std::vector<qint64> latencyNs;
};

void load(const QByteArray& host, int port, const QByteArray& password, double rate, int seconds,
          quint32 seed, LoadResult* out)
{
    using lockscope::monotonicNs;
    redisContext* c = redisConnect(host.constData(), port);
    if (!c || c->err) {
        out->errors = 1;
        redisFree(c);
        return;
    }
    if (!password.isEmpty())
        freeReplyObject(redisCommand(c, "AUTH %b", password.constData(), size_t(password.size())));
    QRandomGenerator rng(seed);
    const qint64 start = monotonicNs();
    const qint64 total = qint64(rate * seconds);
    out->latencyNs.reserve(size_t(total));
    std::vector<qint64> due;
    qint64 i = 0;
    while (i < total) {
        const qint64 now = monotonicNs();
        due.clear();
        for (; i < total && start + qint64(double(i) * 1e9 / rate) <= now; ++i) {
            const QByteArray key = "load:" + QByteArray::number(rng.bounded(100000));
            if (rng.bounded(4) == 0)
                redisAppendCommand(c, "SET %b %b", key.constData(), size_t(key.size()),
                                   "value-of-32-bytes-for-the-load!!", size_t(32));
            else
                redisAppendCommand(c, "GET %b", key.constData(), size_t(key.size()));
            due.push_back(start + qint64(double(i) * 1e9 / rate));
        }
        for (const qint64 d : due) {
            void* reply = nullptr;
            if (redisGetReply(c, &reply) != REDIS_OK) {
                ++out->errors;
                redisFree(c);
                return;
            }
            if (static_cast<redisReply*>(reply)->type == REDIS_REPLY_ERROR)
                ++out->errors;
            freeReplyObject(reply);
            out->latencyNs.push_back(monotonicNs() - d);
            ++out->sent;
        }
        if (const qint64 wait = start + qint64(double(i) * 1e9 / rate) - monotonicNs(); wait > 0)
            std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
    }
    redisFree(c);
}

int run(const QStringList& args)
{
    const BenchArgs a(args);
    const double rate = double(a.number(QStringLiteral("--rate"), 50000));
    const int seconds = int(a.number(QStringLiteral("--seconds"), 10));
    const int connections = int(a.number(QStringLiteral("--connections"), 4));
    const int port = int(a.number(QStringLiteral("--port"), 0));
    const QByteArray password = qgetenv(a.value(QStringLiteral("--password-env")).toLatin1().constData());
    if (port <= 0 || rate <= 0 || seconds <= 0 || connections <= 0) {
        std::fputs("usage: lockbench paced-load --port P [--rate N] [--seconds S] [--connections C] "
                   "[--password-env VAR]\n",
                   stderr);
        return 2;
    }
    std::vector<LoadResult> results(static_cast<std::size_t>(connections));
    std::vector<std::thread> threads;
    const qint64 start = lockscope::monotonicNs();
    for (int t = 0; t < connections; ++t)
        threads.emplace_back(load, QByteArray("127.0.0.1"), port, password, rate / connections, seconds,
                             quint32(t + 1), &results[size_t(t)]);
    for (std::thread& t : threads)
        t.join();
    const double elapsedS = double(lockscope::monotonicNs() - start) / 1e9;
    std::vector<qint64> all;
    qint64 sent = 0;
    qint64 errors = 0;
    for (const LoadResult& r : results) {
        all.insert(all.end(), r.latencyNs.begin(), r.latencyNs.end());
        sent += r.sent;
        errors += r.errors;
    }
    std::sort(all.begin(), all.end());
    const auto percentileUs = [&all](double p) {
        return all.empty() ? 0.0
                           : double(all[std::min(all.size() - 1, size_t(p * double(all.size())))]) / 1000.0;
    };
    const QJsonObject o{{QStringLiteral("bench"), QStringLiteral("paced-load")},
                        {QStringLiteral("rateAsked"), rate},
                        {QStringLiteral("answered"), sent},
                        {QStringLiteral("errors"), errors},
                        {QStringLiteral("rps"), double(sent) / elapsedS},
                        {QStringLiteral("p50Us"), percentileUs(0.50)},
                        {QStringLiteral("p99Us"), percentileUs(0.99)},
                        {QStringLiteral("p999Us"), percentileUs(0.999)}};
    return Benchmark::printLine(o, errors == 0);
}

const Benchmark::Registration registration("paced-load",
                                           "--port P [--rate N] [--seconds S] [--connections C]", run);

} // namespace

} // namespace lockbench
