// SPDX-License-Identifier: Apache-2.0
#pragma once

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
};

} // namespace lockbench
