// SPDX-License-Identifier: Apache-2.0
#include "bench/lockbench/benchargs.h"
#include "bench/lockbench/benchmark.h"
#include "bench/lockbench/ratewriter.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <cstdio>

using namespace lockscope;

namespace lockbench {

namespace {

// `lockbench load -m URL...`: the recorder benchmark's load alone (RateWriter: --rate lock changes a
// second on --resources keys for --seconds), for measuring a process of its own under it
// (serve-figures-bench.sh). Prints how many changes it made and how many failed.
int runLoad(const QStringList& argv)
{
    const BenchArgs args(argv);
    LockScopeConfig config;
    std::vector<std::pair<QByteArray, int>> targets;
    if (!RateWriter::mastersFrom(argv, &config, &targets))
        return 2;
    RateWriter writer(targets, int(args.number(QStringLiteral("--rate"), 5000)),
                      int(args.number(QStringLiteral("--seconds"), 10)),
                      int(args.number(QStringLiteral("--resources"), 20000)));
    const std::atomic<bool> stop{false};
    writer.run(stop);
    const QJsonObject line{{QStringLiteral("bench"), QStringLiteral("load")},
                           {QStringLiteral("changes"), writer.written()},
                           {QStringLiteral("errors"), writer.errors()}};
    return Benchmark::printLine(line, writer.errors() == 0 && writer.written() > 0);
}

const Benchmark::Registration registration("load", "-m URL... [--rate N] [--seconds S] [--resources R]",
                                           runLoad);

} // namespace

} // namespace lockbench
