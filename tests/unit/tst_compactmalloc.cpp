// SPDX-License-Identifier: Apache-2.0
#include "base/compactmalloc.h"
#include "support/testregistry.h"

#include <QTest>

#include <cstdio>
#include <cstdlib>
#include <latch>
#include <thread>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tst_compactmalloc {

using namespace lockscope;

namespace {

// Where the blocks go, so that the compiler cannot leave out a malloc and free pair.
void* volatile escaped = nullptr;

#if defined(__GLIBC__)
// How many arenas malloc has, from its own report (one <heap nr="…"> element each).
int arenaCount()
{
    char* text = nullptr;
    size_t size = 0;
    FILE* out = open_memstream(&text, &size);
    if (!out)
        return -1;
    malloc_info(0, out);
    std::fclose(out);
    const QByteArray report(text, qsizetype(size));
    std::free(text);
    return int(report.count("<heap nr="));
}
#endif

} // namespace

class TestCompactMalloc : public QObject
{
    Q_OBJECT

private slots:
    void sixThreadsShareThreeArenas();
};

// glibc alone gives each thread that allocates an arena of its own (up to 8 per core); with the
// policy, six threads allocating at once share three.
void TestCompactMalloc::sixThreadsShareThreeArenas()
{
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
    QSKIP("glibc's own malloc only (a sanitizer brings its own)");
#else
    if (std::getenv("MALLOC_ARENA_MAX"))
        QSKIP("MALLOC_ARENA_MAX is set: the user's setting wins");
    useCompactMalloc();
    constexpr int threads = 6;
    std::latch allocated(threads);
    std::latch counted(1);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([&] {
            void* block = std::malloc(4096);
            escaped = block;
            allocated.count_down();
            counted.wait(); // every thread holds its block while the arenas are counted
            std::free(block);
        });
    allocated.wait();
    const int arenas = arenaCount();
    counted.count_down();
    for (std::thread& w : workers)
        w.join();
    QVERIFY2(arenas >= 1 && arenas <= compactMallocArenas, qPrintable(QString::number(arenas)));
#endif
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestCompactMalloc)

} // namespace tst_compactmalloc

#include "tst_compactmalloc.moc"
