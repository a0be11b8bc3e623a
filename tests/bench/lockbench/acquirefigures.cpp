// SPDX-License-Identifier: Apache-2.0
#include "bench/lockbench/acquirefigures.h"

#include "bench/lockbench/benchmark.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>

namespace lockbench {

namespace {

double percentileMs(const std::vector<qint64>& sortedNs, double p)
{
    if (sortedNs.empty())
        return 0;
    return double(sortedNs[std::min(sortedNs.size() - 1, size_t(p * double(sortedNs.size())))]) / 1e6;
}

} // namespace

void AcquireFigures::addOptions(QCommandLineParser& parser)
{
    parser.addOption({{QStringLiteral("m"), QStringLiteral("master")},
                      QStringLiteral("master URL"),
                      QStringLiteral("URL")});
    parser.addOption(
        {QStringLiteral("count"), QStringLiteral("pairs"), QStringLiteral("N"), QStringLiteral("20000")});
    parser.addOption({QStringLiteral("concurrency"), QStringLiteral("pairs in flight"), QStringLiteral("C"),
                      QStringLiteral("64")});
    parser.addOption({QStringLiteral("sequential"), QStringLiteral("sequential acquisitions"),
                      QStringLiteral("S"), QStringLiteral("2000")});
    parser.addOption(
        {QStringLiteral("ttl"), QStringLiteral("lock TTL"), QStringLiteral("MS"), QStringLiteral("10000")});
}

int AcquireFigures::print(const char* name, int pairs, double seconds, std::vector<qint64> latenciesNs,
                          qint64 failures)
{
    if (failures > 0)
        std::fprintf(stderr, "lockbench %s: %lld operations failed\n", name, failures);
    std::sort(latenciesNs.begin(), latenciesNs.end());
    const QJsonObject result{{QStringLiteral("pairsPerSec"), double(pairs) / seconds},
                             {QStringLiteral("acquireP50Ms"), percentileMs(latenciesNs, 0.50)},
                             {QStringLiteral("acquireP99Ms"), percentileMs(latenciesNs, 0.99)}};
    return Benchmark::printLine(result, failures == 0);
}

} // namespace lockbench
