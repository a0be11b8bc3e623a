#include "discovery/scanpacer.h"
#include "testregistry.h"

#include <QTest>

#include <functional>

namespace tst_scanpacer {

using namespace lockscope;

namespace {

// A pass over `keys` keys on a made-up server, with a fake clock: each page's PING takes probeUs(page)
// and every key of the page costs perKeyUs to scan and read. Returns the pass's microseconds (round
// trips and pauses) and counts the pages.
qint64 simulatePass(ScanPacer& pacer, qint64 keys, const std::function<qint64(int)>& probeUs, qint64 perKeyUs,
                    int* pages = nullptr)
{
    qint64 clockUs = 0;
    int page = 0;
    for (qint64 left = keys; left > 0; ++page) {
        const int count = pacer.count();
        const qint64 got = qMin<qint64>(left, count);
        left -= got;
        if (pacer.paced())
            pacer.probed(probeUs(page));
        const qint64 elapsed = probeUs(page) + got * perKeyUs;
        pacer.pageDone(int(got), elapsed);
        clockUs += elapsed + pacer.pauseUs();
    }
    if (pages)
        *pages = page;
    return clockUs;
}

} // namespace

class TestScanPacer : public QObject
{
    Q_OBJECT

private slots:
    void parsesRates();
    void maxRunsOnlyTheFirstPassUnpaced();
    void idleServerPassOfAMillionKeysStaysWithinFifteenSeconds();
    void aRareFastProbeDoesNotMakeAnIdleServerLookBusy();
    void backsOffWhenTheServerSlowsAndRecovers();
    void limitCapsTheRate();
};

void TestScanPacer::parsesRates()
{
    QCOMPARE(*ScanRate::parse(QStringLiteral("auto")), ScanRate::automatic());
    QCOMPARE(*ScanRate::parse(QStringLiteral(" MAX ")), ScanRate::max());
    QCOMPARE(*ScanRate::parse(QStringLiteral("5000")), ScanRate::limit(5000));
    QCOMPARE(*ScanRate::parse(QStringLiteral("50k")), ScanRate::limit(50000));
    QCOMPARE(*ScanRate::parse(QStringLiteral("2m keys/s")), ScanRate::limit(2000000));
    QCOMPARE(*ScanRate::parse(QStringLiteral("700/s")), ScanRate::limit(700));
    for (const char* bad : {"", "0", "-5", "fast", "1.5k", "99999999999999999999"})
        QVERIFY2(!ScanRate::parse(QString::fromLatin1(bad)), bad);
    QCOMPARE(ScanRate::limit(5000).toString(), QStringLiteral("5000"));
    QCOMPARE(*ScanRate::parse(ScanRate::max().toString()), ScanRate::max());
}

void TestScanPacer::maxRunsOnlyTheFirstPassUnpaced()
{
    ScanPacer pacer(ScanRate::max(), 1000);
    pacer.beginPass(true);
    QVERIFY(!pacer.paced());
    QCOMPARE(pacer.count(), 1000);
    pacer.probed(5000);
    pacer.pageDone(1000, 100000);
    QCOMPARE(pacer.pauseUs(), 0);
    // Reconciliation passes are polite.
    pacer.beginPass(false);
    QVERIFY(pacer.paced());
    QVERIFY(pacer.count() < 1000);

    ScanPacer automatic(ScanRate::automatic(), 1000);
    automatic.beginPass(true);
    QVERIFY(automatic.paced());
}

void TestScanPacer::idleServerPassOfAMillionKeysStaysWithinFifteenSeconds()
{
    ScanPacer pacer(ScanRate::automatic(), 1000);
    pacer.beginPass(true);
    // Loopback: PINGs of 40-60 us, 2 us a key (SCAN plus pipelined PTTL and GETRANGE).
    int pages = 0;
    const qint64 us = simulatePass(
        pacer, 1000000, [](int page) { return 40 + (page * 7) % 21; }, 2, &pages);
    QVERIFY2(us <= 15 * 1000000, qPrintable(QString::number(us)));
    // Not at full speed either: paced towards the ceiling, in pages smaller than scanCount.
    QVERIFY2(us >= 1000000000LL / ScanPacer::Bounds().ceilingKeysPerSecond, qPrintable(QString::number(us)));
    QCOMPARE(pacer.keysPerSecond(), ScanPacer::Bounds().ceilingKeysPerSecond);
    QVERIFY(pages > 1000);
    QCOMPARE(pacer.readBatch(), ScanPacer::Bounds().maxReadBatch);
}

void TestScanPacer::aRareFastProbeDoesNotMakeAnIdleServerLookBusy()
{
    // Loopback on a virtual machine, idle server: a PING mostly takes 100-250 us (both vCPUs wake
    // up), and now and then 15 us (both happened to be awake). Measured so on the CI's machine,
    // where the lowest probe as the idle latency read an idle server as eight times busier.
    const auto vmProbeUs = [](int page) { return page % 23 == 0 ? 15 : 100 + (page * 37) % 150; };
    ScanPacer pacer(ScanRate::automatic(), 1000);
    pacer.beginPass(true);
    int pages = 0;
    const qint64 us = simulatePass(pacer, 1000000, vmProbeUs, 2, &pages);
    QVERIFY2(us <= 15 * 1000000, qPrintable(QString::number(us)));
    QCOMPARE(pacer.keysPerSecond(), ScanPacer::Bounds().ceilingKeysPerSecond);
    QVERIFY2(pacer.idleUs() >= 100, qPrintable(QString::number(pacer.idleUs())));

    // The same machine with the server busy (PINGs of 1-1.5 ms): the rate still falls to the floor.
    simulatePass(
        pacer, 200000, [](int page) { return 1000 + (page * 37) % 500; }, 2);
    QCOMPARE(pacer.keysPerSecond(), ScanPacer::Bounds().floorKeysPerSecond);
}

void TestScanPacer::backsOffWhenTheServerSlowsAndRecovers()
{
    const ScanPacer::Bounds bounds;
    ScanPacer pacer(ScanRate::automatic(), 1000);
    pacer.beginPass(false);
    simulatePass(
        pacer, 200000, [](int) { return 50; }, 2);
    const int calmCount = pacer.count();
    const int calmBatch = pacer.readBatch();
    QCOMPARE(pacer.idleUs(), 50);

    // Another client keeps the server busy: PINGs take 1.5 ms. The rate falls to the floor, pages
    // and read batches shrink, and a page's time grows by pauses.
    simulatePass(
        pacer, 200000, [](int) { return 1500; }, 2);
    QCOMPARE(pacer.keysPerSecond(), bounds.floorKeysPerSecond);
    QVERIFY2(pacer.latencyRatio() > 5, qPrintable(QString::number(pacer.latencyRatio())));
    QVERIFY2(pacer.count() < calmCount,
             qPrintable(QStringLiteral("%1 %2").arg(pacer.count()).arg(calmCount)));
    QCOMPARE(pacer.readBatch(), bounds.minReadBatch);
    QVERIFY(pacer.readBatch() < calmBatch);
    pacer.pageDone(pacer.count(), 100);
    QCOMPARE(pacer.pauseUs(), qint64(pacer.count()) * 1000000 / bounds.floorKeysPerSecond - 100);
    // A page slower than even the floor allows is followed by a pause as long as itself.
    pacer.pageDone(pacer.count(), 30000);
    QCOMPARE(pacer.pauseUs(), 30000);

    // The idle estimate is not dragged up by a short storm: calm again, the rate climbs back.
    simulatePass(
        pacer, 300000, [](int) { return 50; }, 2);
    QVERIFY(pacer.idleUs() <= 60);
    QCOMPARE(pacer.keysPerSecond(), bounds.ceilingKeysPerSecond);
}

void TestScanPacer::limitCapsTheRate()
{
    ScanPacer pacer(ScanRate::limit(10000), 1000);
    pacer.beginPass(true);
    QVERIFY(pacer.paced());
    const qint64 us = simulatePass(
        pacer, 100000, [](int) { return 50; }, 1);
    // 100k keys at 10k keys a second: 10 s, not less.
    QVERIFY2(us >= 9900000 && us <= 10500000, qPrintable(QString::number(us)));
    QCOMPARE(pacer.keysPerSecond(), 10000);
    // Slow server: below the cap, to a quarter of it.
    simulatePass(
        pacer, 20000, [](int) { return 3000; }, 1);
    QCOMPARE(pacer.keysPerSecond(), 2500);

    // A tiny cap still ends: pages of a few keys, pauses within the bound.
    ScanPacer slow(ScanRate::limit(20), 1000);
    slow.beginPass(false);
    QVERIFY(slow.count() >= 1 && slow.count() <= 20);
    slow.pageDone(slow.count(), 10);
    QVERIFY(slow.pauseUs() <= ScanPacer::Bounds().maxPauseUs);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestScanPacer)

} // namespace tst_scanpacer

#include "tst_scanpacer.moc"
