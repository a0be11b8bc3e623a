// SPDX-License-Identifier: Apache-2.0
#include "lockctl/command.h"

#include <algorithm>

namespace lockctl {

namespace {

std::vector<CommandRegistry::Entry>& entries()
{
    static std::vector<CommandRegistry::Entry> registered;
    return registered;
}

} // namespace

CommandRegistry::CommandRegistry(int order, Factory factory)
{
    entries().push_back({order, factory});
}

std::vector<std::unique_ptr<Command>> allCommands()
{
    std::vector<CommandRegistry::Entry> sorted = entries();
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
    std::vector<std::unique_ptr<Command>> out;
    for (const auto& e : sorted)
        out.push_back(e.factory());
    return out;
}

} // namespace lockctl
