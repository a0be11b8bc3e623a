#include "base/compactmalloc.h"
#include "testregistry.h"

#include <QTest>

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tst_compactmalloc {

using namespace lockscope;

// Where the blocks go, so that the compiler cannot leave out a malloc and free pair.
void* volatile escaped = nullptr;

class TestCompactMalloc : public QObject
{
    Q_OBJECT

private slots:
    void aFreedLargeBlockDoesNotPullTheNextOnesIntoTheHeap();
};

// glibc alone raises its mmap threshold to the size of a mapped block that is freed: the next
// blocks of half a MiB would then come from the heap, and stay in it once freed. With the policy,
// each is mapped on its own (one more mapped region while it lives).
void TestCompactMalloc::aFreedLargeBlockDoesNotPullTheNextOnesIntoTheHeap()
{
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
    QSKIP("glibc's own malloc only (a sanitizer brings its own)");
#else
    if (std::getenv("MALLOC_MMAP_THRESHOLD_"))
        QSKIP("MALLOC_MMAP_THRESHOLD_ is set: the user's setting wins");
    useCompactMalloc();
    void* big = std::malloc(8 << 20);
    QVERIFY(big);
    std::memset(big, 1, 8 << 20);
    escaped = big;
    std::free(big);
    const struct mallinfo2 before = mallinfo2();
    void* mid = std::malloc(512 << 10);
    QVERIFY(mid);
    escaped = mid;
    const struct mallinfo2 during = mallinfo2();
    std::free(mid);
    QCOMPARE(during.hblks, before.hblks + 1);
    QVERIFY(during.hblkhd >= before.hblkhd + (512 << 10));
#endif
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestCompactMalloc)

} // namespace tst_compactmalloc

#include "tst_compactmalloc.moc"
