#include "benchargs.h"
#include "benchmark.h"
#include "configloader.h"
#include "lockmonitor.h"
#include "masterscanner.h"
#include "monotonicclock.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

#include <hiredis/hiredis.h>

#include <cstdio>
#include <thread>
#include <vector>

using namespace lockscope;

namespace lockbench {

namespace {

void printJson(const QJsonObject& o)
{
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

// `lockbench scan`: one full discovery of the given masters through LockMonitor.
int runScan(const QStringList& argv)
{
    const BenchArgs args(argv);
    LockScopeConfig config;
    for (const QString& url : args.values(QStringLiteral("-m"))) {
        Result<ConnectionOptions> m = ConfigLoader::masterFromUrl(url, {}, 30000);
        if (!m) {
            std::fprintf(stderr, "%s\n", qPrintable(m.error().message));
            return 2;
        }
        m->healthIntervalMs = 0;
        config.masters << *m;
    }
    if (config.masters.isEmpty())
        return 2;
    if (args.values(QStringLiteral("--pattern")).size()) {
        config.monitor.patterns.clear();
        for (const QString& p : args.values(QStringLiteral("--pattern")))
            config.monitor.patterns << p.toUtf8();
    }
    config.monitor.scanCount = int(args.number(QStringLiteral("--count"), config.monitor.scanCount));
    config.monitor.pollIntervalMs = 3600000;
    config.monitor.reconcileIntervalMs = 3600000;
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
    printJson({{QStringLiteral("bench"), QStringLiteral("scan")},
               {QStringLiteral("seconds"), seconds},
               {QStringLiteral("keysScanned"), keysScanned},
               {QStringLiteral("locks"), monitor.locks().size()},
               {QStringLiteral("peakRssMiB"), peakRssMiB()}});
    return 0;
}

// `lockbench scan-baseline`: the bare hiredis loop the issue compares against: on each master at
// once (a thread each), SCAN MATCH COUNT 1000 and a pipelined GET + PTTL per key found.
int runBaseline(const QStringList& argv)
{
    const BenchArgs args(argv);
    const QByteArray pattern = args.value(QStringLiteral("--pattern"), QStringLiteral("*lock*")).toUtf8();
    std::vector<std::pair<QByteArray, int>> targets;
    for (const QString& url : args.values(QStringLiteral("-m"))) {
        Result<RedisUrl> u = RedisUrl::parse(url);
        if (!u)
            return 2;
        targets.emplace_back(u->host().toUtf8(), u->port());
    }
    std::vector<qint64> found(targets.size(), 0);
    const qint64 start = monotonicNs();
    std::vector<std::thread> threads;
    for (size_t t = 0; t < targets.size(); ++t)
        threads.emplace_back([&, t] {
            redisContext* c = redisConnect(targets[t].first.constData(), targets[t].second);
            if (!c || c->err)
                return;
            QByteArray cursor = "0";
            do {
                auto* r = static_cast<redisReply*>(redisCommand(c, "SCAN %b MATCH %b COUNT 1000",
                                                                cursor.constData(), size_t(cursor.size()),
                                                                pattern.constData(), size_t(pattern.size())));
                if (!r || r->type != REDIS_REPLY_ARRAY)
                    break;
                cursor = QByteArray(r->element[0]->str, qsizetype(r->element[0]->len));
                const redisReply* keys = r->element[1];
                for (size_t k = 0; k < keys->elements; ++k) {
                    redisAppendCommand(c, "GET %b", keys->element[k]->str, keys->element[k]->len);
                    redisAppendCommand(c, "PTTL %b", keys->element[k]->str, keys->element[k]->len);
                }
                for (size_t k = 0; k < keys->elements * 2; ++k) {
                    void* reply = nullptr;
                    if (redisGetReply(c, &reply) == REDIS_OK)
                        freeReplyObject(reply);
                }
                found[t] += qint64(keys->elements);
                freeReplyObject(r);
            } while (cursor != "0");
            redisFree(c);
        });
    for (std::thread& t : threads)
        t.join();
    qint64 total = 0;
    for (qint64 f : found)
        total += f;
    printJson({{QStringLiteral("bench"), QStringLiteral("scan-baseline")},
               {QStringLiteral("seconds"), double(monotonicNs() - start) / 1e9},
               {QStringLiteral("keysScanned"), total}});
    return 0;
}

const Benchmark::Registration scan("scan", "-m URL... [--pattern GLOB]... [--count N]", runScan);
const Benchmark::Registration baseline("scan-baseline", "-m URL... [--pattern GLOB]", runBaseline);

} // namespace

} // namespace lockbench
