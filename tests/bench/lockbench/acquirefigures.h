// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

#include <vector>

class QCommandLineParser;

namespace lockbench {

// What `lockbench acquire` and its floor, `lockbench acquire-baseline`, share, so that the two are
// measured and printed alike: their options (--master, --count, --concurrency, --sequential, --ttl)
// and their one JSON line, {"pairsPerSec", "acquireP50Ms", "acquireP99Ms"}.
namespace AcquireFigures {

void addOptions(QCommandLineParser& parser);
// Prints the line: `pairs` acquire+release pairs in `seconds`, and the sequential acquisitions' latencies.
void print(int pairs, double seconds, std::vector<qint64> latenciesNs);

} // namespace AcquireFigures

} // namespace lockbench
