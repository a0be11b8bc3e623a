// SPDX-License-Identifier: Apache-2.0
#include "support/testregistry.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace lockscope::test {

namespace {

// Filled by static initialisers: a function-local static is built before its first use whatever
// order the files' initialisers run in.
std::map<std::string, TestEntry>& registry()
{
    static std::map<std::string, TestEntry> entries;
    return entries;
}

QString& runningName()
{
    static QString name;
    return name;
}

std::string testNameOf(const char* sourceFile)
{
    std::string name(sourceFile);
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (const auto dot = name.find('.'); dot != std::string::npos)
        name.erase(dot);
    return name;
}

void listTests(std::FILE* out, const char* program)
{
    std::fprintf(out, "usage: %s TEST [Qt Test options]\ntests in this program:\n", program);
    for (const auto& entry : registry())
        std::fprintf(out, "  %s\n", entry.first.c_str());
}

} // namespace

bool registerTest(const char* sourceFile, TestEntry entry)
{
    const std::string name = testNameOf(sourceFile);
    if (!registry().emplace(name, entry).second) {
        // Two files of one name would run whichever registered first: a build mistake, not a test result.
        std::fprintf(stderr, "two tests registered as %s\n", name.c_str());
        std::abort();
    }
    return true;
}

int runRegisteredTest(int argc, char** argv)
{
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        listTests(argc < 2 ? stderr : stdout, argv[0]);
        return argc < 2 ? 2 : 0;
    }
    const auto found = registry().find(argv[1]);
    if (found == registry().end()) {
        std::fprintf(stderr, "no test named %s\n", argv[1]);
        listTests(stderr, argv[0]);
        return 2;
    }
    // argv[0] names the test, as if it were a program of its own beside this one (Qt takes the
    // application's name from it); the arguments after the test's name are the test's.
    std::string program(argv[0]);
    const auto slash = program.find_last_of('/');
    program = (slash == std::string::npos ? std::string() : program.substr(0, slash + 1)) + found->first;
    std::vector<char*> args{program.data()};
    for (int i = 2; i < argc; ++i)
        args.push_back(argv[i]);
    args.push_back(nullptr);
    int count = argc - 1; // outlives the test's QCoreApplication, which keeps a reference to it
    runningName() = QString::fromStdString(found->first);
    return found->second(count, args.data());
}

QStringList selfArguments()
{
    return {runningName()};
}

} // namespace lockscope::test
