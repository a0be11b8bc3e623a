// SPDX-License-Identifier: Apache-2.0
#include "base/heaptrimmer.h"
#include "support/testregistry.h"

#include <QElapsedTimer>
#include <QTest>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace tst_heaptrimmer {

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

constexpr qint64 mib = qint64(1) << 20;

// Where it must trim: under glibc's own malloc. The sanitizer pass brings a malloc of its own, where
// it must do nothing (and its release tests check that instead: a skip fails the suite).
constexpr bool trimsHere =
#if defined(__GLIBC__) && !defined(LOCKSCOPE_SANITIZED)
    true;
#else
    false;
#endif

// So that the compiler cannot leave out a malloc and free pair.
void* volatile escaped = nullptr;

// 64 MiB freed in the middle of the heap, where glibc keeps it resident until a trim: blocks under
// malloc's mmap threshold, each followed by a small one that stays, so that the freed ones neither
// merge nor reach the top of the heap (which glibc gives back by itself). The small ones are too
// large for malloc's per-thread caches: freed, they merge with their neighbours into the top again
// (cached ones stay where they are, and the next test's blocks would be placed around them).
class FreedMiddle final
{
public:
    FreedMiddle()
    {
        constexpr size_t block = 64 * 1024;
        std::vector<void*> large;
        for (int i = 0; i < 1024; ++i) {
            void* p = std::malloc(block);
            std::memset(p, 0x5a, block); // resident
            escaped = p;
            large.push_back(p);
            m_fences.push_back(std::malloc(2048));
            escaped = m_fences.back();
        }
        for (void* p : large)
            std::free(p);
    }
    ~FreedMiddle()
    {
        for (void* p : m_fences)
            std::free(p);
    }
    Q_DISABLE_COPY_MOVE(FreedMiddle)

private:
    std::vector<void*> m_fences;
};

} // namespace

class TestHeapTrimmer : public QObject
{
    Q_OBJECT

private slots:
    void itTrimsWhereMallocIsGlibcsOwn();
    void aWorthwhileTrimOrAMovingHeapBringsTheNextSoonAndAnIdleOneWaitsLonger();
    void aTrimGivesBackPagesFreedInTheMiddleOfTheHeap();
    void itsThreadTrimsWhileTheProcessRuns();
    void itStopsAtOnceWhenDestroyed();
    void theEnvironmentCanTurnItOff();
};

void TestHeapTrimmer::itTrimsWhereMallocIsGlibcsOwn()
{
    QCOMPARE(HeapTrimmer::isAvailable(), trimsHere);
}

void TestHeapTrimmer::aWorthwhileTrimOrAMovingHeapBringsTheNextSoonAndAnIdleOneWaitsLonger()
{
    const HeapTrimmer::Schedule s{100ms, 1000ms, mib};
    QCOMPARE(HeapTrimmer::nextWait(800ms, mib, 0, s), 100ms);
    QCOMPARE(HeapTrimmer::nextWait(800ms, 0, mib, s), 100ms); // grown (or shrunk) since the last
    QCOMPARE(HeapTrimmer::nextWait(100ms, mib - 1, mib - 1, s), 200ms);
    QCOMPARE(HeapTrimmer::nextWait(400ms, 0, 0, s), 800ms);
    QCOMPARE(HeapTrimmer::nextWait(800ms, 0, 0, s), 1000ms); // no further than the longest
    QCOMPARE(HeapTrimmer::nextWait(1000ms, 0, 0, s), 1000ms);
    QCOMPARE(HeapTrimmer::nextWait(10ms, 0, 0, s), 100ms); // nor sooner than the shortest
}

void TestHeapTrimmer::aTrimGivesBackPagesFreedInTheMiddleOfTheHeap()
{
    if (!HeapTrimmer::isAvailable()) {
        const FreedMiddle freed;
        QCOMPARE(HeapTrimmer::trimNow(), 0); // not glibc's malloc: nothing done, nothing said to be
        return;
    }
    HeapTrimmer::trimNow(); // what earlier tests left
    const FreedMiddle freed;
    const qint64 released = HeapTrimmer::trimNow();
    QVERIFY2(released >= 48 * mib, qPrintable(QString::number(released / mib) + " MiB"));
    // Nothing left to give back a second time.
    QVERIFY2(HeapTrimmer::trimNow() < 4 * mib, "a second trim gave back as much again");
}

void TestHeapTrimmer::itsThreadTrimsWhileTheProcessRuns()
{
    const HeapTrimmer::Schedule often{10ms, 40ms, mib};
    if (!HeapTrimmer::isAvailable()) {
        QVERIFY(!HeapTrimmer(often).isRunning());
        return;
    }
    HeapTrimmer::trimNow();
    const HeapTrimmer trimmer(often);
    const FreedMiddle freed;
    QTRY_VERIFY2_WITH_TIMEOUT(
        trimmer.releasedBytes() >= 48 * mib,
        qPrintable(
            QStringLiteral("%1 trims, %2 MiB").arg(trimmer.trims()).arg(trimmer.releasedBytes() / mib)),
        20000);
    QVERIFY(trimmer.trims() >= 1);
}

void TestHeapTrimmer::itStopsAtOnceWhenDestroyed()
{
    QElapsedTimer clock;
    clock.start();
    {
        const HeapTrimmer trimmer(HeapTrimmer::Schedule{1h, 1h, mib});
        QCOMPARE(trimmer.trims(), 0); // an hour to its first
    }
    // Not a timing test: an hour's wait would fail it; a loaded machine's seconds would not.
    QVERIFY2(clock.elapsed() < 600000, "its destructor waited for the schedule");
}

void TestHeapTrimmer::theEnvironmentCanTurnItOff()
{
    const QByteArray before = qgetenv("LOCKSCOPE_HEAP_TRIM");
    const bool wasSet = qEnvironmentVariableIsSet("LOCKSCOPE_HEAP_TRIM");
    qputenv("LOCKSCOPE_HEAP_TRIM", "0");
    const bool offRuns = HeapTrimmer().isRunning();
    qputenv("LOCKSCOPE_HEAP_TRIM", "1");
    const bool onRuns = HeapTrimmer().isRunning();
    if (wasSet)
        qputenv("LOCKSCOPE_HEAP_TRIM", before);
    else
        qunsetenv("LOCKSCOPE_HEAP_TRIM");
    QVERIFY(!offRuns);
    QCOMPARE(onRuns, HeapTrimmer::isAvailable());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestHeapTrimmer)

} // namespace tst_heaptrimmer

#include "tst_heaptrimmer.moc"
