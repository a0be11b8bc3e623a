// SPDX-License-Identifier: Apache-2.0
#include "insights/familyfiguretext.h"
#include "insights/lockstatsbuilder.h"
#include "support/handmaderecording.h"
#include "support/testregistry.h"

#include <QTest>

#include <algorithm>
#include <optional>

namespace tst_lockstats {

using namespace lockscope;

namespace {

using Kind = RecordEvent::Kind;

using Recording = test::HandMadeRecording;

// A copy: the list it came from is often a temporary.
std::optional<FamilyFigures> find(const QList<FamilyFigures>& all, const QByteArray& family)
{
    return test::familyIn(all, family);
}

QByteArray token(int i)
{
    return "tok-" + QByteArray::number(i);
}

} // namespace

// Issue #44: the figures per family, against tenures whose holds, leases and endings are known.
class TestLockStats : public QObject
{
    Q_OBJECT

private slots:
    void holdTimesAndHandoversOfASteadyFamily();
    void anOverrunningFamilyIsFlaggedByHeadroomAndExpiries();
    void aFamilyWhoseHoldersDieIsFlaggedByItsExpiryShare();
    void fewSamplesFlagNothing();
    void renewalsCountOncePerRenewalAndLateOnesAreCounted();
    void aTenureFoundHeldHasNoHoldTime();
    void aForceReleaseSeenAfterTheDeleteIsAForceRelease();
    void sinceKeepsOnlyWhatHappenedFromThen();
    void theRiskiestComeFirst();
    void manyLocksGoThroughWithFiguresIntact();
    void waitersAndTheLongestFreeWhileTheyWaited();
    void refusedAttemptsCountOnTheMasterThatRefusedMost();
};

void TestLockStats::holdTimesAndHandoversOfASteadyFamily()
{
    // 200 tenures of order:N, held 5, 10, ... 1000 ms on a 2 s lease; the next holder of each lock
    // takes it 50 ms after the release.
    Recording r;
    for (int i = 1; i <= 200; ++i) {
        const QByteArray resource = "order:" + QByteArray::number(i % 20);
        const qint64 at = qint64(i) * 2000;
        r.tenure(resource, token(i), at, i * 5, 2000);
    }
    // One lock handed over 50 ms after a release: resource order:1 again, right after tenure 1.
    r.tenure("order:1", "tok-next", 2000 + 5 + 50, 10, 2000);
    const QList<FamilyFigures> all = r.figures();
    QCOMPARE(all.size(), 1);
    const FamilyFigures& f = all.first();
    QCOMPARE(f.family, QByteArray("order:*"));
    QCOMPARE(f.resources, 20);
    QCOMPARE(f.acquisitions, 201);
    QCOMPARE(f.released, 201);
    QCOMPARE(f.expired, 0);
    QCOMPARE(f.leaseMs, 2000);
    // Nearest rank over 201 holds (5..1000 step 5, and one of 10): p50 is the 101st, p99 the 199th.
    QCOMPARE(f.holdMs.count, 201);
    QCOMPARE(f.holdMs.p50, 500);
    QCOMPARE(f.holdMs.p99, 990);
    QCOMPARE(f.holdMs.max, 1000);
    QCOMPARE(f.headroom, 990.0 / 2000.0);
    QVERIFY(!f.lowHeadroom);
    QCOMPARE(f.expiredShare, 0.0);
    QVERIFY(!f.flagged());
    // Handovers: tok-next 50 ms after tenure 1; on each lock the next tenure 40 s after the one
    // before began (i and i + 20), so 40000 - 5i ms after its release: the longest after tenure 2.
    QCOMPARE(f.handoverGapMs.count, 181);
    QCOMPARE(f.handoverGapMs.p50 > 0, true);
    QCOMPARE(f.handoverGapMs.max, 40000 - 2 * 5);
}

void TestLockStats::anOverrunningFamilyIsFlaggedByHeadroomAndExpiries()
{
    // Holds up to 495 ms on a 500 ms lease, and 8 of 108 tenures that ran past it and expired.
    Recording r;
    for (int i = 0; i < 100; ++i)
        r.tenure("job:" + QByteArray::number(i), token(i), i * 1000, 100 + i * 4 - (i == 99 ? 1 : 0), 500);
    for (int i = 100; i < 108; ++i)
        r.tenure("job:" + QByteArray::number(i), token(i), i * 1000, 500, 500, Kind::Expired);
    const std::optional<FamilyFigures> f = find(r.figures(), "job:*");
    QVERIFY(f);
    QCOMPARE(f->holdMs.count, 100);
    QCOMPARE(f->holdMs.p99, 100 + 98 * 4);
    QVERIFY(f->headroom > FamilyFigures::lowHeadroomAbove);
    QVERIFY(f->lowHeadroom);
    QCOMPARE(f->expired, 8);
    QCOMPARE(f->expiredShare, 8.0 / 108.0);
    QVERIFY(f->highExpiryShare);
}

void TestLockStats::aFamilyWhoseHoldersDieIsFlaggedByItsExpiryShare()
{
    Recording r;
    for (int i = 0; i < 90; ++i)
        r.tenure("cart:" + QByteArray::number(i), token(i), i * 3000, 100, 1000);
    for (int i = 90; i < 100; ++i) // killed while holding: the lease runs out
        r.tenure("cart:" + QByteArray::number(i), token(i), i * 3000, 1000, 1000, Kind::Expired);
    const std::optional<FamilyFigures> f = find(r.figures(), "cart:*");
    QVERIFY(f);
    QCOMPARE(f->expiredShare, 0.1);
    QVERIFY(f->highExpiryShare);
    QCOMPARE(f->headroom, 0.1);
    QVERIFY(!f->lowHeadroom);
}

void TestLockStats::fewSamplesFlagNothing()
{
    Recording r;
    for (int i = 0; i < 3; ++i)
        r.tenure("rare:" + QByteArray::number(i), token(i), i * 3000, 990, 1000,
                 i == 0 ? Kind::Expired : Kind::Released);
    const std::optional<FamilyFigures> f = find(r.figures(), "rare:*");
    QVERIFY(f);
    QVERIFY(f->headroom > 0.9);
    QVERIFY(f->expiredShare > 0.3);
    QVERIFY(!f->flagged());
}

void TestLockStats::renewalsCountOncePerRenewalAndLateOnesAreCounted()
{
    // A watchdog on a 30 s lease renewing every 10 s; each renewal read on three masters within
    // 2 ms (one Redlock extension); one renewal 26 s after the one before (4 s left: late).
    Recording r;
    r.add(0, Kind::Acquired, "report:7", "w1", 30000);
    const QList<qint64> renewals = {10000, 20000, 30000, 56000, 66000};
    for (qint64 at : renewals)
        for (int m = 0; m < 3; ++m)
            r.add(at + m, Kind::Extended, "report:7", "w1", 30000, m);
    r.add(70000, Kind::Released, "report:7", "w1");
    const std::optional<FamilyFigures> f = find(r.figures(), "report:*");
    QVERIFY(f);
    QCOMPARE(f->renewalGapMs.count, 5);
    QCOMPARE(f->renewalGapMs.p50, 10000);
    QCOMPARE(f->renewalGapMs.max, 26000);
    QCOMPARE(f->lateRenewals, 1);
    QCOMPARE(f->holdMs.p50, 70000);
}

void TestLockStats::aTenureFoundHeldHasNoHoldTime()
{
    Recording r;
    r.add(0, Kind::Seen, "lock:a", "old", 5000);
    r.add(1000, Kind::Released, "lock:a", "old");
    r.tenure("lock:a", "new", 1200, 300, 5000);
    const std::optional<FamilyFigures> f = find(r.figures(), "lock:a");
    QVERIFY(f);
    QCOMPARE(f->released, 2);
    QCOMPARE(f->acquisitions, 1);
    QCOMPARE(f->holdMs.count, 1);
    QCOMPARE(f->holdMs.p50, 300);
    QCOMPARE(f->handoverGapMs.count, 1);
    QCOMPARE(f->handoverGapMs.p50, 200);
}

void TestLockStats::aForceReleaseSeenAfterTheDeleteIsAForceRelease()
{
    Recording r;
    r.tenure("lock:stuck", "t1", 0, 4000, 60000);         // the key's deletion, seen as a release
    r.add(6000, Kind::ForceReleased, "lock:stuck", "t1"); // the audit record, read 2 s later
    r.tenure("lock:stuck", "t2", 20000, 100, 60000);
    const std::optional<FamilyFigures> f = find(r.figures(), "lock:stuck");
    QVERIFY(f);
    QCOMPARE(f->forceReleased, 1);
    QCOMPARE(f->released, 1);
    QCOMPARE(f->holdMs.count, 1);
    QCOMPARE(f->holdMs.p50, 100);
}

void TestLockStats::sinceKeepsOnlyWhatHappenedFromThen()
{
    Recording r;
    for (int i = 0; i < 10; ++i)
        r.tenure("batch:" + QByteArray::number(i), token(i), i * 10000, 1000 + i, 5000);
    const std::optional<FamilyFigures> f = find(r.figures(50000), "batch:*");
    QVERIFY(f);
    QCOMPARE(f->acquisitions, 5);
    QCOMPARE(f->holdMs.count, 5);
    QCOMPARE(f->holdMs.p50, 1007); // 1005..1009
    QCOMPARE(f->released, 5);
}

void TestLockStats::theRiskiestComeFirst()
{
    Recording r;
    for (int i = 0; i < 20; ++i) {
        r.tenure("calm:" + QByteArray::number(i), token(i), i * 1000, 10, 1000);
        r.tenure("tight:" + QByteArray::number(i), token(100 + i), i * 1000, 950, 1000);
    }
    const QList<FamilyFigures> all = r.figures();
    QCOMPARE(all.size(), 2);
    QCOMPARE(all.at(0).family, QByteArray("tight:*"));
    QVERIFY(all.at(0).lowHeadroom);
    QCOMPARE(all.at(1).family, QByteArray("calm:*"));
}

void TestLockStats::manyLocksGoThroughWithFiguresIntact()
{
    // 300k locks, each taken once and released, spread over an hour: the pass forgets the settled
    // ones on the way (eviction), and nothing is lost from the figures.
    Recording r;
    const int locks = 300000;
    for (int i = 0; i < locks; ++i)
        r.tenure("user:" + QByteArray::number(i), token(i), qint64(i) * 12, 100 + i % 100, 1000);
    const std::optional<FamilyFigures> f = find(r.figures(), "user:*");
    QVERIFY(f);
    QCOMPARE(f->resources, locks);
    QCOMPARE(f->acquisitions, locks);
    QCOMPARE(f->released, locks);
    QCOMPARE(f->holdMs.count, locks);
    QCOMPARE(f->holdMs.max, 199);
}

void TestLockStats::waitersAndTheLongestFreeWhileTheyWaited()
{
    Recording r;
    r.tenure("hot:1", token(1), 0, 500, 2000);
    r.add(100, Kind::Waiters, "hot:1", "3", -1, 0);
    r.tenure("hot:1", token(2), 1700, 300, 2000); // free 1200 ms while three waited
    r.add(1800, Kind::Waiters, "hot:1", "1", -1, 0);
    r.tenure("hot:1", token(3), 2100, 400, 2000); // free 100 ms, one waiting
    r.add(2200, Kind::Waiters, "hot:1", "0", -1, 0);
    r.tenure("hot:1", token(4), 7500, 100, 2000); // free 5 s, nobody waiting: not counted
    r.tenure("calm:1", token(5), 0, 100, 2000);
    const QList<FamilyFigures> all = r.figures();
    const std::optional<FamilyFigures> hot = find(all, "hot:*");
    QVERIFY(hot);
    QCOMPARE(hot->peakWaiters, 3);
    QCOMPARE(hot->longestFreeWhileWaitingMs, 1200);
    QCOMPARE(hot->refusedAttempts, -1); // never traced
    // Evidence, not tenures: the waiters change no figure of the tenures themselves.
    QCOMPARE(hot->acquisitions, 4);
    QCOMPARE(hot->handoverGapMs.max, 5000);
    const std::optional<FamilyFigures> calm = find(all, "calm:*");
    QVERIFY(calm);
    QCOMPARE(calm->peakWaiters, -1);
    QCOMPARE(calm->longestFreeWhileWaitingMs, -1);
    QCOMPARE(FamilyFigureText::contention(*calm), QStringLiteral("-"));
    QCOMPARE(FamilyFigureText::contention(*hot), QStringLiteral("3 waiting"));
}

void TestLockStats::refusedAttemptsCountOnTheMasterThatRefusedMost()
{
    // A Redlock attempt is turned away by every master holding another token: four attempts, each
    // refused on master 0 and master 1, two of them on master 2 as well.
    Recording r;
    r.tenure("sale:1", token(1), 0, 5000, 10000);
    r.add(10, Kind::TracedHolder, "sale:1", token(1), -1, 0);
    for (int i = 0; i < 4; ++i)
        for (int m = 0; m < (i < 2 ? 3 : 2); ++m)
            r.add(100 + i * 100, Kind::TracedRefused, "sale:1", token(100 + i), -1, m);
    // Traced, and never refused: 0, not unknown.
    r.tenure("quiet:1", token(2), 0, 100, 10000);
    r.add(10, Kind::TracedHolder, "quiet:1", token(2), -1, 1);
    const QList<FamilyFigures> all = r.figures();
    const std::optional<FamilyFigures> sale = find(all, "sale:*");
    QVERIFY(sale);
    QCOMPARE(sale->refusedAttempts, 4);
    QCOMPARE(sale->acquisitions, 1);
    QCOMPARE(sale->peakWaiters, -1);
    QCOMPARE(FamilyFigureText::contention(*sale), QStringLiteral("4 refused"));
    const std::optional<FamilyFigures> quiet = find(all, "quiet:*");
    QVERIFY(quiet);
    QCOMPARE(quiet->refusedAttempts, 0);
    const QJsonObject json = familyFiguresJson(*sale).value(QStringLiteral("contention")).toObject();
    QCOMPARE(json.value(QStringLiteral("refusedAttempts")).toInt(), 4);
    QVERIFY(json.value(QStringLiteral("peakWaiters")).isNull());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockStats)

} // namespace tst_lockstats

#include "tst_lockstats.moc"
