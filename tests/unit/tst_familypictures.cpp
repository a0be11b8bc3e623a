// SPDX-License-Identifier: Apache-2.0
#include "insights/familypictures.h"
#include "support/handmaderecording.h"
#include "support/testregistry.h"

#include <QTest>

#include <numeric>

namespace tst_familypictures {

using namespace lockscope;
using Kind = RecordEvent::Kind;
using test::HandMadeRecording;

// What the window's Insights draws (issue #44), against tenures whose holds, times and endings
// the test chose: the histograms count every sample in its bin, the timeline every acquisition and
// ending in its bin of wall-clock time.
class TestFamilyPictures : public QObject
{
    Q_OBJECT

private slots:
    void aHistogramCountsEachSampleInItsBin();
    void aHistogramsBinsReadWellAndReachFarEnough();
    void theHoldsHistogramReachesPastTheLease();
    void theTimelineCountsAcquisitionsAndEndingsWhenTheyHappened();
    void figuresAloneCarryNoPictures();
};

void TestFamilyPictures::aHistogramCountsEachSampleInItsBin()
{
    const std::vector<qint32> sorted{0, 9, 10, 15, 99, 100, 250};
    const DurationHistogram h = DurationHistogram::of(sorted, 100, 10);
    QCOMPARE(h.binMs, 10);
    QCOMPARE(h.counts.size(), size_t(10));
    QCOMPARE(h.counts[0], 2); // 0 and 9
    QCOMPARE(h.counts[1], 2); // 10 and 15
    QCOMPARE(h.counts[9], 1); // 99
    QCOMPARE(h.beyond, 2);    // 100 and 250: past [0, 100)
    QCOMPARE(h.total(), qint64(sorted.size()));
    // Nothing to count: one empty bin, never a division by zero.
    const DurationHistogram empty = DurationHistogram::of({}, 0);
    QCOMPARE(empty.total(), 0);
    QVERIFY(!empty.counts.empty());
}

void TestFamilyPictures::aHistogramsBinsReadWellAndReachFarEnough()
{
    // 2,500 ms in 40 bins would be 62.5 ms each: 100 ms bins (1, 2 or 5 times a power of ten), 25 of them.
    const DurationHistogram h = DurationHistogram::of({1, 2499}, 2500, 40);
    QCOMPARE(h.binMs, 100);
    QCOMPARE(h.counts.size(), size_t(25));
    QCOMPARE(h.counts.back(), 1);
    QCOMPARE(h.beyond, 0);
    for (const qint64 reach : {1LL, 7LL, 333LL, 86'400'000LL}) {
        const DurationHistogram r = DurationHistogram::of({}, reach, 40);
        QVERIFY2(qint64(r.counts.size()) * r.binMs >= reach, qPrintable(QString::number(reach)));
        QVERIFY(r.counts.size() <= 40);
    }
}

void TestFamilyPictures::theHoldsHistogramReachesPastTheLease()
{
    // order:N held 10, 20, ... 1000 ms on a 2 s lease: the picture reaches the lease and a quarter
    // beyond it (the line is drawn inside), and holds every released tenure.
    HandMadeRecording r;
    for (int i = 1; i <= 100; ++i)
        r.tenure("order:" + QByteArray::number(i), "tok-" + QByteArray::number(i), i * 3000, i * 10, 2000);
    const std::optional<FamilyFigures> f =
        test::familyIn(r.figures(-1, LockStatsBuilder::Detail::Pictures), "order:*");
    QVERIFY(f && f->pictures);
    const DurationHistogram& holds = f->pictures->holds;
    QVERIFY(qint64(holds.counts.size()) * holds.binMs >= 2500);
    QCOMPARE(holds.total(), 100);
    QCOMPARE(holds.beyond, 0);
    // Bin by bin, as the test's own holds fall.
    for (size_t bin = 0; bin < holds.counts.size(); ++bin) {
        qint64 expected = 0;
        for (int i = 1; i <= 100; ++i)
            expected += (i * 10) / holds.binMs == qint64(bin);
        QCOMPARE(holds.counts[bin], expected);
    }
    // Each lock taken once: no handover.
    QCOMPARE(f->pictures->handoverGaps.total(), 0);
}

void TestFamilyPictures::theTimelineCountsAcquisitionsAndEndingsWhenTheyHappened()
{
    // Over ten minutes: job:N taken every 5 s, held 1 s (one in four left to expire on its 3 s lease);
    // cart:N taken every 20 s and released after 100 ms.
    HandMadeRecording r;
    struct Truth
    {
        qint64 atMs;
        Kind end;
        qint64 endMs;
    };
    QList<Truth> jobs;
    for (int i = 0; i < 120; ++i) {
        const Kind end = i % 4 == 3 ? Kind::Expired : Kind::Released;
        const qint64 hold = end == Kind::Expired ? 3000 : 1000;
        r.tenure("job:" + QByteArray::number(i), "j" + QByteArray::number(i), i * 5000, hold, 3000, end);
        jobs << Truth{HandMadeRecording::t0 + i * 5000, end, HandMadeRecording::t0 + i * 5000 + hold};
    }
    for (int i = 0; i < 30; ++i)
        r.tenure("cart:" + QByteArray::number(i), "c" + QByteArray::number(i), i * 20000, 100, 1000);
    const QList<FamilyFigures> all = r.figures(-1, LockStatsBuilder::Detail::Pictures);
    const std::optional<FamilyFigures> job = test::familyIn(all, "job:*");
    QVERIFY(job && job->pictures);
    const ActivityTimeline& t = job->pictures->activity;
    // Ten minutes in at most 60 bins of a width a reader counts in: 10 s.
    QCOMPARE(t.binMs, 10000);
    QVERIFY(t.fromMs <= HandMadeRecording::t0);
    QVERIFY(t.acquired.size() <= size_t(FamilyPictures::timelineBins) + 1);
    for (size_t bin = 0; bin < t.acquired.size(); ++bin) {
        const qint64 from = t.fromMs + qint64(bin) * t.binMs, to = from + t.binMs;
        qint64 acquired = 0, released = 0, expired = 0;
        for (const Truth& j : std::as_const(jobs)) {
            acquired += j.atMs >= from && j.atMs < to;
            released += j.end == Kind::Released && j.endMs >= from && j.endMs < to;
            expired += j.end == Kind::Expired && j.endMs >= from && j.endMs < to;
        }
        QCOMPARE(t.acquired[bin], acquired);
        QCOMPARE(t.ended[size_t(Episode::End::Released)][bin], released);
        QCOMPARE(t.ended[size_t(Episode::End::Expired)][bin], expired);
        QCOMPARE(t.ended[size_t(Episode::End::Lost)][bin], 0);
    }
    // Each family its own: cart's 30 acquisitions are not job's.
    const std::optional<FamilyFigures> cart = test::familyIn(all, "cart:*");
    QVERIFY(cart && cart->pictures);
    const std::vector<qint64>& carts = cart->pictures->activity.acquired;
    QCOMPARE(std::accumulate(carts.cbegin(), carts.cend(), qint64(0)), 30);
}

void TestFamilyPictures::figuresAloneCarryNoPictures()
{
    HandMadeRecording r;
    r.tenure("order:1", "a", 0, 10, 1000);
    const QList<FamilyFigures> all = r.figures();
    QCOMPARE(all.size(), 1);
    QVERIFY(!all.first().pictures);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestFamilyPictures)

} // namespace tst_familypictures

#include "tst_familypictures.moc"
