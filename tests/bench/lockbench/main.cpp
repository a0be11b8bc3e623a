// SPDX-License-Identifier: Apache-2.0
#include "bench/lockbench/benchmark.h"

#include <QCoreApplication>
#include <QJsonDocument>

#include <cstdio>
#include <map>
#include <string>

namespace lockbench {

namespace {

struct Entry
{
    const char* usage;
    Benchmark::Run run;
};

std::map<std::string, Entry>& registry()
{
    static std::map<std::string, Entry> entries;
    return entries;
}

} // namespace

Benchmark::Registration::Registration(const char* name, const char* usage, Run run)
{
    registry()[name] = {usage, run};
}

int Benchmark::printLine(const QJsonObject& line, bool passed)
{
    std::printf("%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
    return passed ? 0 : 1;
}

} // namespace lockbench

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    const auto& entries = lockbench::registry();
    if (args.isEmpty() || !entries.count(args.first().toStdString())) {
        std::fputs("usage: lockbench COMMAND [options]\n", stderr);
        for (const auto& [name, entry] : entries)
            std::fprintf(stderr, "  %s %s\n", name.c_str(), entry.usage);
        return 2;
    }
    return entries.at(args.first().toStdString()).run(args.mid(1));
}
