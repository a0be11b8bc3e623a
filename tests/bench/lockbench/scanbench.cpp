// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "bench/lockbench/benchargs.h"
#include "bench/lockbench/benchmark.h"
#include "config/configloader.h"
#include "discovery/masterscanner.h"
#include "monitor/lockmonitor.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

#include <hiredis/hiredis.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace lockscope;

namespace lockbench {

namespace {

// The discovery `lockbench scan` runs: its masters (-m), patterns, page size and pace, and no
// polling or reconciliation pass within the run. Says why and returns nothing when an option is bad.
std::optional<LockScopeConfig> scanConfig(const BenchArgs& args)
{
    LockScopeConfig config;
    for (const QString& url : args.values(QStringLiteral("-m"))) {
        Result<ConnectionOptions> m = ConfigLoader::masterFromUrl(url, {}, 30000);
        if (!m) {
            std::fprintf(stderr, "%s\n", qPrintable(m.error().message));
            return std::nullopt;
        }
        m->healthIntervalMs = 0;
        config.masters << *m;
    }
    if (config.masters.isEmpty())
        return std::nullopt;
    if (args.values(QStringLiteral("--pattern")).size()) {
        config.monitor.patterns.clear();
        for (const QString& p : args.values(QStringLiteral("--pattern")))
            config.monitor.patterns << p.toUtf8();
    }
    config.monitor.scanCount = int(args.number(QStringLiteral("--count"), config.monitor.scanCount));
    if (const QString rate = args.value(QStringLiteral("--scan-rate"), QString()); !rate.isEmpty()) {
        const Result<ScanRate> parsed = ScanRate::parse(rate);
        if (!parsed) {
            std::fprintf(stderr, "%s\n", qPrintable(parsed.error().message));
            return std::nullopt;
        }
        config.monitor.scanRate = *parsed;
    }
    config.monitor.pollIntervalMs = 3600000;
    config.monitor.reconcileIntervalMs = 3600000;
    return config;
}

// `lockbench scan`: one full discovery of the given masters through LockMonitor.
int runScan(const QStringList& argv)
{
    const std::optional<LockScopeConfig> parsed = scanConfig(BenchArgs(argv));
    if (!parsed)
        return 2;
    const LockScopeConfig& config = *parsed;
    MasterSet masters(config.masters);
    LockMonitor monitor(&masters, config);
    monitor.setCoalesceMs(0);
    qint64 keysScanned = 0;
    QObject::connect(&monitor, &LockMonitor::initialScanFinished, qApp, &QCoreApplication::quit);
    const qint64 start = monotonicNs();
    masters.open();
    monitor.start();
    QCoreApplication::exec();
    const double seconds = double(monotonicNs() - start) / 1e9;
    for (int i = 0; i < masters.size(); ++i)
        keysScanned += monitor.scanner(i)->knownKeys();
    // The initial scan is also announced when the last master it waited for went down: a discovery
    // that lost a master did less work, and is no result.
    const bool complete = masters.upCount() == masters.size();
    QJsonObject out{{QStringLiteral("bench"), QStringLiteral("scan")},
                    {QStringLiteral("seconds"), seconds},
                    {QStringLiteral("keysScanned"), keysScanned},
                    {QStringLiteral("locks"), monitor.locks().size()},
                    {QStringLiteral("peakRssMiB"), peakRssMiB()}};
    if (!complete)
        out.insert(
            QStringLiteral("error"),
            QStringLiteral("%1 of %2 masters up at the end").arg(masters.upCount()).arg(masters.size()));
    return Benchmark::printLine(out, complete);
}

// `lockbench scan-baseline`: the bare hiredis loop the issue compares against: on each master at
// once (a thread each), SCAN MATCH COUNT 1000 and a pipelined GET + PTTL per key found.
// With --rate N, each master's loop reads at most N keys a second, evenly: after each page it sleeps
// until the time at which its keys so far are due. That is the least any client reading at that rate
// can cost a master's other clients (impact-bench's floor for a polite pass); --count sets its page.
int runBaseline(const QStringList& argv)
{
    const BenchArgs args(argv);
    const QByteArray pattern = args.value(QStringLiteral("--pattern"), QStringLiteral("*lock*")).toUtf8();
    const qint64 rate = args.number(QStringLiteral("--rate"), 0);
    const qint64 count = args.number(QStringLiteral("--count"), 1000);
    if (rate < 0 || count < 1) {
        std::fprintf(stderr, "scan-baseline: --rate must be >= 0 and --count >= 1\n");
        return 2;
    }
    std::vector<std::pair<QByteArray, int>> targets;
    for (const QString& url : args.values(QStringLiteral("-m"))) {
        Result<RedisUrl> u = RedisUrl::parse(url);
        if (!u)
            return 2;
        targets.emplace_back(u->host().toUtf8(), u->port());
    }
    std::vector<qint64> found(targets.size(), 0);
    std::vector<std::string> errors(targets.size());
    // Lock names (a key whose GET returned a value), across all masters: the same count the
    // monitor reports as locks. Kept per thread, merged at the end.
    std::vector<std::set<std::string>> names(targets.size());
    const qint64 start = monotonicNs();
    std::vector<std::thread> threads;
    for (size_t t = 0; t < targets.size(); ++t)
        threads.emplace_back([&, t] {
            redisContext* c = redisConnect(targets[t].first.constData(), targets[t].second);
            if (!c || c->err) {
                errors[t] = c ? c->errstr : "cannot allocate a context";
                if (c)
                    redisFree(c);
                return;
            }
            QByteArray cursor = "0";
            const QByteArray countArg = QByteArray::number(count);
            const auto loopStart = std::chrono::steady_clock::now();
            do {
                auto* r = static_cast<redisReply*>(
                    redisCommand(c, "SCAN %b MATCH %b COUNT %b", cursor.constData(), size_t(cursor.size()),
                                 pattern.constData(), size_t(pattern.size()), countArg.constData(),
                                 size_t(countArg.size())));
                if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2) {
                    errors[t] = !r                             ? c->errstr
                                : r->type == REDIS_REPLY_ERROR ? r->str
                                                               : "unexpected SCAN reply";
                    if (r)
                        freeReplyObject(r);
                    break;
                }
                cursor = QByteArray(r->element[0]->str, qsizetype(r->element[0]->len));
                const redisReply* keys = r->element[1];
                for (size_t k = 0; k < keys->elements; ++k) {
                    redisAppendCommand(c, "GET %b", keys->element[k]->str, keys->element[k]->len);
                    redisAppendCommand(c, "PTTL %b", keys->element[k]->str, keys->element[k]->len);
                }
                for (size_t k = 0; k < keys->elements * 2 && errors[t].empty(); ++k) {
                    void* reply = nullptr;
                    if (redisGetReply(c, &reply) != REDIS_OK) {
                        errors[t] = c->errstr;
                        break;
                    }
                    const auto* got = static_cast<redisReply*>(reply);
                    if (got->type == REDIS_REPLY_ERROR)
                        errors[t] = got->str;
                    else if (k % 2 == 0 && got->type == REDIS_REPLY_STRING)
                        names[t].emplace(keys->element[k / 2]->str, keys->element[k / 2]->len);
                    freeReplyObject(reply);
                }
                found[t] += qint64(keys->elements);
                freeReplyObject(r);
                if (rate > 0)
                    std::this_thread::sleep_until(loopStart +
                                                  std::chrono::microseconds(found[t] * 1000000 / rate));
            } while (cursor != "0" && errors[t].empty());
            redisFree(c);
        });
    for (std::thread& t : threads)
        t.join();
    const double seconds = double(monotonicNs() - start) / 1e9;
    qint64 total = 0;
    std::set<std::string> locks;
    QStringList failed;
    for (size_t t = 0; t < targets.size(); ++t) {
        total += found[t];
        locks.insert(names[t].begin(), names[t].end());
        if (!errors[t].empty())
            failed << QStringLiteral("%1:%2: %3")
                          .arg(QString::fromUtf8(targets[t].first))
                          .arg(targets[t].second)
                          .arg(QString::fromStdString(errors[t]));
    }
    QJsonObject out{{QStringLiteral("bench"), QStringLiteral("scan-baseline")},
                    {QStringLiteral("seconds"), seconds},
                    {QStringLiteral("keysScanned"), total},
                    {QStringLiteral("locks"), qint64(locks.size())}};
    if (rate > 0)
        out.insert(QStringLiteral("rate"), rate);
    // A master it could not scan to the end makes the baseline quicker, not better: no result.
    if (!failed.isEmpty())
        out.insert(QStringLiteral("error"), failed.join(QLatin1String("; ")));
    return Benchmark::printLine(out, failed.isEmpty());
}

const Benchmark::Registration scan("scan", "-m URL... [--pattern GLOB]... [--count N] [--scan-rate RATE]",
                                   runScan);
const Benchmark::Registration baseline("scan-baseline",
                                       "-m URL... [--pattern GLOB] [--rate KEYS/S] [--count N]", runBaseline);

} // namespace

} // namespace lockbench
