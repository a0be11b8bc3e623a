// SPDX-License-Identifier: Apache-2.0
#include "bench/lockbench/acquirefigures.h"
#include "bench/lockbench/benchmark.h"

#include "base/eventwait.h"
#include "base/monotonicclock.h"
#include "config/configloader.h"
#include "locking/redlock.h"
#include "topology/masterset.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>
#include <functional>
#include <vector>

using namespace lockscope;

namespace lockbench {

namespace {

// Acquire + release pairs on distinct resources with `concurrency` pairs in flight, then the
// latency of single acquisitions one after another: the Redlock hot path end to end, with no
// contention, on N real masters.
int runAcquire(const QStringList& args)
{
    QCommandLineParser parser;
    AcquireFigures::addOptions(parser);
    parser.addOption({QStringLiteral("master-timeout-ms"), QStringLiteral("per-master timeout"),
                      QStringLiteral("MS"), QStringLiteral("50")});
    if (!parser.parse(QStringList{QStringLiteral("lockbench")} + args)) {
        std::fprintf(stderr, "lockbench acquire: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    const int count = parser.value(QStringLiteral("count")).toInt();
    const int concurrency = parser.value(QStringLiteral("concurrency")).toInt();
    const int sequential = parser.value(QStringLiteral("sequential")).toInt();
    const qint64 ttlMs = parser.value(QStringLiteral("ttl")).toLongLong();
    if (count <= 0 || concurrency <= 0 || sequential <= 0 || !Redlock::ttlProblem(ttlMs).isEmpty() ||
        parser.values(QStringLiteral("master")).isEmpty()) {
        std::fputs("usage: lockbench acquire -m URL... --count N --concurrency C --sequential S\n", stderr);
        return 2;
    }
    LockScopeConfig config;
    for (const QString& url : parser.values(QStringLiteral("master"))) {
        Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(url, {}, 5000);
        if (!master) {
            std::fprintf(stderr, "lockbench acquire: %s\n", qPrintable(master.error().message));
            return 2;
        }
        master->healthIntervalMs = 0;
        config.masters << *master;
    }
    config.redlock.retryCount = 0; // distinct resources never contend: a failure is a real failure
    config.redlock.masterTimeoutMs = parser.value(QStringLiteral("master-timeout-ms")).toInt();

    MasterSet masters(config.masters);
    masters.open();
    if (!runEventsUntil([&] { return masters.isSettled(); }, 10000) || masters.upCount() != masters.size()) {
        std::fputs("lockbench acquire: not every master came up\n", stderr);
        return 3;
    }
    Redlock redlock(&masters, config);
    const QByteArray prefix = "lockbench:" + QByteArray::number(QCoreApplication::applicationPid()) + ':';
    int failures = 0;

    // Throughput: `concurrency` chains of acquire -> release -> next acquire.
    auto runPairs = [&](int pairs, const QByteArray& tag) {
        int started = 0;
        int finished = 0;
        std::function<void()> next = [&] {
            if (started >= pairs)
                return;
            const QByteArray resource = prefix + tag + QByteArray::number(started++);
            redlock.acquire(resource, ttlMs, QString(), [&](const RedlockOutcome& acquired) {
                if (!acquired.ok()) {
                    ++failures;
                    ++finished;
                    next();
                    return;
                }
                redlock.release(acquired.lease, [&](const RedlockOutcome& released) {
                    failures += released.ok() ? 0 : 1;
                    ++finished;
                    next();
                });
            });
        };
        const qint64 startNs = monotonicNs();
        for (int i = 0; i < concurrency; ++i)
            next();
        runEventsUntil([&] { return finished >= pairs; }, 600000);
        return double(monotonicNs() - startNs) / 1e9;
    };
    runPairs(std::min(count, 2000), "warm:"); // scripts loaded, buffers grown, caches warm
    const double seconds = runPairs(count, "pair:");

    std::vector<qint64> latencies;
    latencies.reserve(size_t(sequential));
    for (int i = 0; i < sequential; ++i) {
        bool done = false;
        const qint64 startNs = monotonicNs();
        RedlockLease lease;
        redlock.acquire(prefix + "seq:" + QByteArray::number(i), ttlMs, QString(),
                        [&](const RedlockOutcome& o) {
                            latencies.push_back(monotonicNs() - startNs);
                            failures += o.ok() ? 0 : 1;
                            lease = o.lease;
                            done = true;
                        });
        runEventsUntil([&] { return done; }, 60000);
        bool released = false;
        redlock.release(lease, [&](const RedlockOutcome&) { released = true; });
        runEventsUntil([&] { return released; }, 60000);
    }

    return AcquireFigures::print("acquire", count, seconds, std::move(latencies), failures);
}

const Benchmark::Registration
    registration("acquire", "-m URL... [--count N] [--concurrency C] [--sequential S] [--ttl MS]",
                 runAcquire);

} // namespace

} // namespace lockbench
