// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QStringList>

namespace lockbench {

// One `lockbench <name>` sub-command; each file registers its own with a static Benchmark::Registration.
// A benchmark prints exactly one JSON line on stdout and returns the process exit code.
class Benchmark
{
public:
    using Run = int (*)(const QStringList& args);
    struct Registration
    {
        Registration(const char* name, const char* usage, Run run);
    };
    // Prints `line` as the benchmark's JSON line (flushed: a script may read it while the process
    // is still ending) and returns the exit code: 0 when `passed`, 1 otherwise.
    static int printLine(const QJsonObject& line, bool passed = true);
};

} // namespace lockbench
