// SPDX-License-Identifier: Apache-2.0
#include "discovery/scanpacer.h"
#include "support/testregistry.h"

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
    void othersCommandsMakeTheServerShared();
    void commandCountsFromAnotherPassOrARestartedServerAreNoRate();
    void aServerThatRefusesTheCountIsJudgedByPings();
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

void TestScanPacer::othersCommandsMakeTheServerShared()
{
    const ScanPacer::Bounds bounds;
    ScanPacer pacer(ScanRate::automatic(), 1000);
    pacer.beginPass(false);
    // An idle server at full speed first: fast PINGs, the rate at its ceiling, large pages.
    simulatePass(
        pacer, 200000, [](int) { return 50; }, 2);
    QCOMPARE(pacer.keysPerSecond(), bounds.ceilingKeysPerSecond);
    QVERIFY(pacer.count() > bounds.sharedCount);

    // The count is asked for at once, often in the pass's first interval (a server that became
    // shared since the last pass is known within a few pages), then once per interval.
    const qint64 start = 1000000;
    const qint64 young = bounds.youngCountIntervalUs;
    QVERIFY(pacer.wantsCommandCount(start));
    quint32 pass = pacer.commandCountSent(start);
    pacer.commandsCounted(pass, 1000000, 20000, start);
    QVERIFY(!pacer.wantsCommandCount(start + young - 1));
    QVERIFY(pacer.wantsCommandCount(start + young));
    qint64 sentUs = start;
    for (int i = 0; i < 100 && pacer.wantsCommandCount(sentUs + young); ++i) {
        sentUs += young;
        pass = pacer.commandCountSent(sentUs);
        // 1,000 commands each time, all but 5 of them ours: 500 a second of others'.
        const qint64 counts = (sentUs - start) / young;
        pacer.commandsCounted(pass, 1000000 + counts * 1000, 20000 + counts * 995, sentUs);
        QVERIFY(!pacer.shared());
    }
    QCOMPARE(sentUs, start + bounds.commandCountIntervalUs - young);
    QVERIFY(!pacer.wantsCommandCount(sentUs + bounds.commandCountIntervalUs - 1));
    QVERIFY(pacer.wantsCommandCount(sentUs + bounds.commandCountIntervalUs));
    QVERIFY(pacer.wantsProbe());
    // 300 of others' in the next 0.1 s: 3,000 a second. Shared: short pages, one read batch each, no
    // PING, and the rate is cut page by page down to the floor, without the pause of a slowed server.
    pacer.commandsCounted(pass, 1010000, 29655, sentUs + bounds.commandCountIntervalUs);
    QVERIFY(pacer.shared());
    QVERIFY(!pacer.wantsProbe());
    QCOMPARE(pacer.count(), bounds.sharedCount);
    QCOMPARE(pacer.readBatch(), bounds.sharedCount);
    for (int page = 0; page < 20; ++page)
        pacer.pageDone(pacer.count(), 5000);
    QCOMPARE(pacer.keysPerSecond(), bounds.floorKeysPerSecond);
    QCOMPARE(pacer.pauseUs(), 0);
    pacer.pageDone(pacer.count(), 100);
    QCOMPARE(pacer.pauseUs(), qint64(bounds.sharedCount) * 1000000 / bounds.floorKeysPerSecond - 100);

    // Others stop (10 commands in 0.1 s): no longer shared, PINGs judge again and the rate climbs.
    pacer.commandsCounted(pass, 1020010, 39655, sentUs + 2 * bounds.commandCountIntervalUs);
    QVERIFY(!pacer.shared());
    QVERIFY(pacer.wantsProbe());
    simulatePass(
        pacer, 300000, [](int) { return 50; }, 2);
    QCOMPARE(pacer.keysPerSecond(), bounds.ceilingKeysPerSecond);

    // Unpaced (`max` on a first pass) nothing is counted.
    ScanPacer max(ScanRate::max(), 1000);
    max.beginPass(true);
    QVERIFY(!max.wantsCommandCount(0));
    QVERIFY(!max.wantsProbe());
}

void TestScanPacer::commandCountsFromAnotherPassOrARestartedServerAreNoRate()
{
    ScanPacer pacer(ScanRate::automatic(), 1000);
    pacer.beginPass(false);
    const quint32 first = pacer.commandCountSent(0);
    pacer.commandsCounted(first, 1000, 100, 0);
    pacer.commandsCounted(first, 100000, 100, 100000); // 999k a second of others'
    QVERIFY(pacer.shared());

    // A lister's next master: a reading sent before it is the last master's, and no base for this one.
    pacer.beginPass(false);
    QVERIFY(pacer.wantsCommandCount(100000));
    const quint32 second = pacer.commandCountSent(100000);
    QVERIFY(second != first);
    pacer.commandsCounted(first, 200000, 100, 150000);
    pacer.commandsCounted(second, 50, 200, 200000);
    pacer.commandsCounted(second, 60, 205, 300000); // 5 of others' in 0.1 s
    QVERIFY(!pacer.shared());

    // A restarted server counts from 0 again: no rate from the two, the next reading is the base.
    pacer.commandsCounted(second, 5, 210, 400000);
    QVERIFY(!pacer.shared());
    pacer.commandsCounted(second, 1005, 215, 500000); // 995 in 0.1 s
    QVERIFY(pacer.shared());
    // Time that did not pass (two readings at once) is no rate either.
    pacer.commandsCounted(second, 1010, 220, 500000);
    QVERIFY(pacer.shared());
}

void TestScanPacer::aServerThatRefusesTheCountIsJudgedByPings()
{
    const ScanPacer::Bounds bounds;
    ScanPacer pacer(ScanRate::automatic(), 1000);
    pacer.beginPass(false);
    const quint32 pass = pacer.commandCountSent(0);
    pacer.commandsCounted(pass, 0, 0, 0);
    pacer.commandsCounted(pass, 100000, 0, 100000);
    QVERIFY(pacer.shared());
    pacer.commandCountRefused();
    QVERIFY(!pacer.shared());
    QVERIFY(pacer.wantsProbe());
    // Not asked for again in this pass; the next may be another server's, which may allow it.
    QVERIFY(!pacer.wantsCommandCount(10000000));
    pacer.beginPass(false);
    QVERIFY(pacer.wantsCommandCount(20000000));
    pacer.commandCountSent(20000000);
    pacer.commandCountRefused();
    // The PINGs alone: an idle server, then a slow one backs it off to the floor and the smallest
    // read batches.
    simulatePass(
        pacer, 200000, [](int) { return 50; }, 2);
    QCOMPARE(pacer.keysPerSecond(), bounds.ceilingKeysPerSecond);
    simulatePass(
        pacer, 200000, [](int) { return 1500; }, 2);
    QCOMPARE(pacer.keysPerSecond(), bounds.floorKeysPerSecond);
    QCOMPARE(pacer.readBatch(), bounds.minReadBatch);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestScanPacer)

} // namespace tst_scanpacer

#include "tst_scanpacer.moc"
