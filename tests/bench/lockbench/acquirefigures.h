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
// Prints the line: `pairs` acquire+release pairs in `seconds`, and the sequential acquisitions'
// latencies (and to stderr how many operations failed, when any did); returns the exit code, 1 when
// any failed.
int print(const char* name, int pairs, double seconds, std::vector<qint64> latenciesNs, qint64 failures);

} // namespace AcquireFigures

} // namespace lockbench
