#include "benchargs.h"
#include "benchmark.h"
#include "configloader.h"
#include "lockmonitor.h"
#include "monotonicclock.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSet>
#include <QTimer>

#include <hiredis/hiredis.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

using namespace lockscope;

namespace lockbench {

namespace {

// `lockbench event-latency`: with keyspace notifications on, a writer thread sets locks on the
// masters at --rate changes per second (values carry the monotonic time they were sent); the
// monitor's batches say when each one reached the view. Prints p50/p99/max of that delay.
int runEventLatency(const QStringList& argv)
{
    const BenchArgs args(argv);
    const int rate = int(args.number(QStringLiteral("--rate"), 5000));
    const int seconds = int(args.number(QStringLiteral("--seconds"), 5));
    const int resources = int(args.number(QStringLiteral("--resources"), 20000));
    LockScopeConfig config;
    std::vector<std::pair<QByteArray, int>> targets;
    for (const QString& url : args.values(QStringLiteral("-m"))) {
        Result<ConnectionOptions> m = ConfigLoader::masterFromUrl(url, {}, 5000);
        if (!m)
            return 2;
        config.masters << *m;
        targets.emplace_back(m->url.host().toUtf8(), m->url.port());
    }
    if (config.masters.isEmpty())
        return 2;
    config.monitor.patterns = {"bench:*"};
    config.monitor.reconcileIntervalMs = 3600000;
    for (const auto& t : targets) {
        // Values from an earlier run would be counted as (very late) arrivals of this one.
        redisContext* c = redisConnect(t.first.constData(), t.second);
        if (c && !c->err)
            freeReplyObject(redisCommand(c, "FLUSHALL"));
        redisFree(c);
    }
    MasterSet masters(config.masters);
    LockMonitor monitor(&masters, config);
    masters.open();
    monitor.start();

    std::vector<qint64> latenciesUs;
    QSet<QByteArray> counted;
    latenciesUs.reserve(size_t(rate) * size_t(seconds));
    QObject::connect(&monitor, &LockMonitor::locksChanged, [&](const LockBatch& batch) {
        const qint64 now = monotonicNs();
        auto collect = [&](const LockView& v) {
            for (const MasterObservation& m : v.observations)
                if (m.present() && m.value().startsWith("t") && !counted.contains(m.value())) {
                    // Each value counts once: in the first batch that carries it.
                    counted.insert(m.value());
                    latenciesUs.push_back((now - m.value().mid(1).toLongLong()) / 1000);
                }
        };
        for (const LockView& v : batch.added)
            collect(v);
        for (const LockView& v : batch.changed)
            collect(v);
    });

    std::atomic<bool> stop{false};
    std::atomic<qint64> written{0};
    std::thread writer;
    QObject::connect(&monitor, &LockMonitor::initialScanFinished, [&] {
        writer = std::thread([&] {
            std::vector<redisContext*> contexts;
            for (const auto& t : targets)
                contexts.push_back(redisConnect(t.first.constData(), t.second));
            std::vector<int> pending(contexts.size(), 0);
            QRandomGenerator rng(7);
            const qint64 start = monotonicNs();
            const qint64 total = qint64(rate) * seconds;
            qint64 i = 0;
            while (i < total && !stop) {
                // Everything due by now goes out pipelined, so a slow reply never holds back the pace.
                const qint64 now = monotonicNs();
                for (; i < total && start + i * 1000000000LL / rate <= now; ++i) {
                    const size_t c = size_t(rng.bounded(int(contexts.size())));
                    const QByteArray key = "bench:" + QByteArray::number(rng.bounded(resources));
                    const QByteArray value = "t" + QByteArray::number(monotonicNs());
                    redisAppendCommand(contexts[c], "SET %b %b PX 30000", key.constData(), size_t(key.size()),
                                       value.constData(), size_t(value.size()));
                    ++pending[c];
                }
                for (size_t c = 0; c < contexts.size(); ++c)
                    for (; pending[c] > 0; --pending[c]) {
                        void* reply = nullptr;
                        if (redisGetReply(contexts[c], &reply) == REDIS_OK)
                            freeReplyObject(reply);
                        ++written;
                    }
                // Sleeping, not spinning: on a two-core machine a spinning writer would starve the
                // servers and the monitor it is measuring.
                if (const qint64 wait = start + i * 1000000000LL / rate - monotonicNs(); wait > 0)
                    std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
            }
            for (redisContext* c : contexts)
                redisFree(c);
        });
        QTimer::singleShot((seconds + 1) * 1000, qApp, &QCoreApplication::quit);
    });
    QCoreApplication::exec();
    stop = true;
    if (writer.joinable())
        writer.join();

    std::sort(latenciesUs.begin(), latenciesUs.end());
    auto pct = [&](double p) {
        return latenciesUs.empty() ? -1.0
                                   : double(latenciesUs[std::min(latenciesUs.size() - 1,
                                                                 size_t(p * double(latenciesUs.size())))]) /
                                         1000.0;
    };
    std::printf("%s\n", QJsonDocument(QJsonObject{{QStringLiteral("bench"), QStringLiteral("event-latency")},
                                                  {QStringLiteral("changesPerSec"), rate},
                                                  {QStringLiteral("changesWritten"), written.load()},
                                                  {QStringLiteral("changesSeen"), qint64(latenciesUs.size())},
                                                  {QStringLiteral("p50Ms"), pct(0.50)},
                                                  {QStringLiteral("p99Ms"), pct(0.99)},
                                                  {QStringLiteral("maxMs"), pct(1.0)}})
                            .toJson(QJsonDocument::Compact)
                            .constData());
    return 0;
}

const Benchmark::Registration
    registration("event-latency", "-m URL... [--rate N] [--seconds S] [--resources R]", runEventLatency);

} // namespace

} // namespace lockbench
