// SPDX-License-Identifier: Apache-2.0
#include "metrics/familyactivity.h"
#include "metrics/metricsrenderer.h"
#include "support/promtool.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_familyactivity {

using namespace lockscope;
using namespace lockscope::test;

namespace {

const FamilySeries* seriesNamed(const QList<FamilySeries>& all, const QByteArray& family)
{
    for (const FamilySeries& s : all)
        if (s.family == family)
            return &s;
    return nullptr;
}

// The sample lines of `name` in a rendered page.
QByteArrayList samples(const QByteArray& page, const QByteArray& name)
{
    QByteArrayList out;
    for (const QByteArray& line : page.split('\n'))
        if (line.startsWith(QByteArray(name + "{")) || line.startsWith(QByteArray(name + " ")))
            out << line;
    return out;
}

} // namespace

// The live figures per family of `lockctl serve` (issue #44): hold-time histograms, endings and the
// lease headroom, with a bounded number of series.
class TestFamilyActivity : public QObject
{
    Q_OBJECT

private slots:
    void holdsGoToTheirBucketsAndOnlyReleasesCount();
    void headroomIsTheRecentP99OverTheMedianLease();
    void seriesAreBoundedAndKeptOnceGiven();
    void aFamilyNamedOtherIsTheOtherSeries();
    void thePageCarriesTheFamiliesEscaped();
};

void TestFamilyActivity::holdsGoToTheirBucketsAndOnlyReleasesCount()
{
    FamilyActivity activity;
    const int orders = activity.seriesOf("order:1234");
    QCOMPARE(activity.seriesOf("order:88aa0bc1ff"), orders); // one family
    // 5 ms (the first bucket: le is inclusive), 6 ms, 1 s, and an hour (+Inf).
    for (const qint64 ms : {5, 6, 1000, 3600 * 1000})
        activity.ended(orders, FamilySeries::Released, ms);
    activity.ended(orders, FamilySeries::Expired, 2000);      // how long it was let, not held
    activity.ended(orders, FamilySeries::Released, -1);       // found held at start: no hold known
    activity.ended(orders, FamilySeries::ForceReleased, 900); // counted, no hold
    const FamilySeries s = activity.snapshot().first();
    QCOMPARE(s.family, QByteArray("order:*"));
    QCOMPARE(s.holds, quint64(4));
    QCOMPARE(s.buckets[0], quint64(1));                                 // le 0.005
    QCOMPARE(s.buckets[1], quint64(1));                                 // le 0.01
    QCOMPARE(s.buckets[7], quint64(1));                                 // le 1
    QCOMPARE(s.buckets[FamilySeries::bucketBounds.size()], quint64(1)); // +Inf
    QCOMPARE(s.holdSecondsSum, 0.005 + 0.006 + 1 + 3600);
    QCOMPARE(s.endings[FamilySeries::Released], quint64(5));
    QCOMPARE(s.endings[FamilySeries::Expired], quint64(1));
    QCOMPARE(s.endings[FamilySeries::ForceReleased], quint64(1));
    QCOMPARE(s.endings[FamilySeries::Replaced], quint64(0));
}

void TestFamilyActivity::headroomIsTheRecentP99OverTheMedianLease()
{
    FamilyActivity activity;
    const int jobs = activity.seriesOf("job:1");
    for (int i = 0; i < 9; ++i) {
        activity.acquired(jobs, 1000);
        activity.ended(jobs, FamilySeries::Released, 100);
    }
    QCOMPARE(activity.snapshot().first().headroom, -1.0); // nine holds say nothing yet
    // 100 holds of 1..100 ms on leases of 200 ms (and one odd lease the median ignores).
    for (int i = 1; i <= 100; ++i) {
        activity.acquired(jobs, i == 50 ? 90000 : 200);
        activity.ended(jobs, FamilySeries::Released, i);
    }
    // The ring keeps the latest 1024 holds: the nine of 100 ms and 1..100; their p99 (nearest
    // rank 108 of 109) is 100.
    QCOMPARE(activity.snapshot().first().headroom, 100.0 / 200.0);
    // The ring forgets: after 1024 holds of 190 ms the old ones are gone.
    for (int i = 0; i < FamilyActivity::recentHolds; ++i) {
        activity.acquired(jobs, 200);
        activity.ended(jobs, FamilySeries::Released, 190);
    }
    QCOMPARE(activity.snapshot().first().headroom, 190.0 / 200.0);
    // A lock without expiry gives no lease.
    const int bare = activity.seriesOf("bare:1");
    for (int i = 0; i < 20; ++i) {
        activity.acquired(bare, -1);
        activity.ended(bare, FamilySeries::Released, 5);
    }
    QCOMPARE(seriesNamed(activity.snapshot(), "bare:*")->headroom, -1.0);
}

void TestFamilyActivity::seriesAreBoundedAndKeptOnceGiven()
{
    FamilyActivity activity;
    // A keyspace of made-up names (each its own family): the first maxFamilies get a series.
    QList<int> given;
    for (int i = 0; i < FamilyActivity::maxFamilies; ++i)
        given << activity.seriesOf("family" + QByteArray(1, char('a' + i % 26)) + QByteArray::number(i) +
                                   "x:1");
    const int other = activity.seriesOf("late:1");
    QVERIFY(!given.contains(other));
    QCOMPARE(activity.seriesOf("later:1"), other);
    // A family that had a series keeps it.
    QCOMPARE(activity.seriesOf("familya0x:99"), given.first());
    for (int i = 0; i < 10000; ++i)
        activity.ended(activity.seriesOf("flood" + QByteArray::number(i) + "z:1"), FamilySeries::Released, 1);
    const QList<FamilySeries> all = activity.snapshot();
    QCOMPARE(all.size(), FamilyActivity::maxFamilies + 1);
    QCOMPARE(all.last().family, FamilyActivity::otherFamily);
    QCOMPARE(all.last().holds, quint64(10000));
}

void TestFamilyActivity::aFamilyNamedOtherIsTheOtherSeries()
{
    // A lock called "other" has a series of its own before the limit is reached; the families past
    // the limit then count in it, not in a second series with the same label.
    FamilyActivity activity;
    const int named = activity.seriesOf("other");
    for (int i = 0; i < FamilyActivity::maxFamilies + 5; ++i)
        activity.ended(
            activity.seriesOf("family" + QByteArray(1, char('a' + i % 26)) + QByteArray::number(i) + "x:1"),
            FamilySeries::Released, 1);
    const QList<FamilySeries> all = activity.snapshot();
    QCOMPARE(all.size(), FamilyActivity::maxFamilies);
    QCOMPARE(std::count_if(all.cbegin(), all.cend(),
                           [](const FamilySeries& s) { return s.family == FamilyActivity::otherFamily; }),
             1);
    QCOMPARE(all.at(named).holds, quint64(6)); // the 6 families past the 49 after "other"
    MetricsInput in;
    in.families = all;
    if (promtoolPath().isEmpty())
        QSKIP("promtool (Debian package prometheus) is not installed");
    const PromtoolRun run =
        runPromtool({QStringLiteral("check"), QStringLiteral("metrics")}, MetricsRenderer::render(in));
    QVERIFY2(run.code == 0, run.output.constData());
}

void TestFamilyActivity::thePageCarriesTheFamiliesEscaped()
{
    FamilyActivity activity;
    const int hostile = activity.seriesOf("evil\"\n\x1b[2J:1");
    const int steady = activity.seriesOf("steady:7");
    for (int i = 0; i < 20; ++i) {
        activity.acquired(steady, 2000);
        activity.ended(steady, FamilySeries::Released, 150 + i);
    }
    activity.ended(hostile, FamilySeries::Expired, 1000);
    MetricsInput in;
    in.families = activity.snapshot();
    const QByteArray page = MetricsRenderer::render(in);
    const QByteArrayList buckets = samples(page, "lockscope_lock_hold_seconds_bucket");
    QCOMPARE(buckets.size(), 2 * int(FamilySeries::bucketBounds.size() + 1));
    QVERIFY(buckets.contains("lockscope_lock_hold_seconds_bucket{family=\"steady:*\",le=\"0.1\"} 0"));
    QVERIFY(buckets.contains("lockscope_lock_hold_seconds_bucket{family=\"steady:*\",le=\"0.25\"} 20"));
    QVERIFY(buckets.contains("lockscope_lock_hold_seconds_bucket{family=\"steady:*\",le=\"+Inf\"} 20"));
    QVERIFY(samples(page, "lockscope_lock_hold_seconds_count")
                .contains("lockscope_lock_hold_seconds_count{family=\"steady:*\"} 20"));
    QVERIFY(samples(page, "lockscope_lock_endings_total")
                .contains("lockscope_lock_endings_total{family=\"steady:*\",how=\"released\"} 20"));
    // The server's bytes, escaped before they reach a label: no raw quote, line feed or escape.
    const QByteArrayList expired = samples(page, "lockscope_lock_endings_total");
    QVERIFY(expired.contains(
        "lockscope_lock_endings_total{family=\"evil\\\"\\\\x0a\\\\x1b[2J:*\",how=\"expired\"} 1"));
    QVERIFY(!page.contains('\x1b'));
    // Headroom where there are enough holds: p99 169 ms of a 2 s lease.
    QCOMPARE(samples(page, "lockscope_lock_lease_headroom_ratio"),
             QByteArrayList{"lockscope_lock_lease_headroom_ratio{family=\"steady:*\"} 0.0845"});
    if (promtoolPath().isEmpty())
        QSKIP("promtool (Debian package prometheus) is not installed");
    const PromtoolRun run = runPromtool({QStringLiteral("check"), QStringLiteral("metrics")}, page);
    QVERIFY2(run.code == 0, run.output.constData());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestFamilyActivity)

} // namespace tst_familyactivity

#include "tst_familyactivity.moc"
