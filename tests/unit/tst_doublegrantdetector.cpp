// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/doublegrantdetector.h"
#include "diagnosis/doublegrantscan.h"
#include "support/incidentexpectation.h"
#include "support/recordevents.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_doublegrantdetector {

using namespace lockscope;

namespace {

using Kind = RecordEvent::Kind;

// Events of resource "r" in session 1.
HistoryEvent resourceEvent(qint64 ms, Kind kind, const QByteArray& token, quint64 holders = 0,
                           qint64 ttlMs = -1)
{
    return test::inSession(1, test::lockEvent(ms, kind, "r", token, holders, ttlMs));
}

HistoryEvent masterEvent(qint64 ms, Kind kind, int master, const QString& detail)
{
    return test::inSession(1, test::masterEvent(ms, kind, master, detail));
}

// A record of resource "r" on that many masters, for the table-driven tests.
struct Case
{
    const char* name;
    int masters;
    QList<HistoryEvent> events;
};

ResourceHistory history(int masters, const QList<HistoryEvent>& events)
{
    ResourceHistory h;
    h.resource = "r";
    RecordingSession s;
    s.id = 1;
    s.startedMs = 0;
    s.lastMs = 100000; // watched until then
    for (int i = 0; i < masters; ++i)
        s.masters << QStringLiteral("redis://127.0.0.1:%1").arg(7000 + i);
    h.sessions = {s};
    h.events = events;
    return h;
}

} // namespace

// Issue #42, against hand-made records of the demo's cases and of handovers that are no double grant.
class TestDoubleGrantDetector : public QObject
{
    Q_OBJECT

private slots:
    void restartDuringAHoldIsAMajorityOverlap();
    void failoverOfAPrimaryIsAFailoverLoss();
    void handoversThatAreNoDoubleGrant();
    void anExpiryHandoverIsPossibleOnly();
    void aFirstHolderLettingGoAtOnceIsPossibleOnly();
    void aDeleteRunAfterTheSecondsQuorumProvesAShortOverlap();
    void validityCountsFromItsReadNotFromTheQuorum();
    void aValidityRunOutIsInDoubtOnlyWithinTheDriftAllowance();
    void aValidityKnownToOutlastTheOthersQuorumIsProven();
    void aCopyGoneEarlyWithoutARestartIsNamed();
    void aLockWithoutATtlLostOnARestart();
    void theOverlapEndsWithTheFirstToGiveUp();
    void evidenceStaysShortForALongRenewedHold();
    void aBusyLockIsJudgedAfterManyHandovers();
    void aRestartBeforeACopyWasWrittenExplainsNothing();
    void aReleaseAndRetakeBetweenTwoReadsIsNoProvenOverlap();
};

void TestDoubleGrantDetector::restartDuringAHoldIsAMajorityOverlap()
{
    // A on M1-M3 (M4, M5 down); M3 restarts empty; B gets M3-M5 while A's validity runs.
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(history(
        5, {resourceEvent(1000, Kind::Acquired, "A", 0b00111, 29000),
            masterEvent(3000, Kind::MasterRestarted, 2, QStringLiteral("run_id a1 → 9c")),
            resourceEvent(3100, Kind::Holders, "A", 0b00011), resourceEvent(3100, Kind::AtRisk, "A", 0b00011),
            resourceEvent(8000, Kind::Contested, "B", 0b11100, 9000),
            resourceEvent(20000, Kind::Released, "B"), resourceEvent(26000, Kind::Released, "A")}));
    QCOMPARE(found.size(), 1);
    const SafetyIncident& i = found.first();
    // To 17000: B's validity ran out first (its release came later).
    test::verifyIncident(i, {SafetyIncident::Kind::MajorityOverlap, SafetyIncident::Confidence::Proven, "A",
                             "B", 8000, 17000});
    QVERIFY2(i.cause.contains(QLatin1String("M3")) && i.cause.contains(QLatin1String("restarted")),
             qPrintable(i.cause));
    QVERIFY(i.evidence.size() >= 3);
}

void TestDoubleGrantDetector::failoverOfAPrimaryIsAFailoverLoss()
{
    // One master (a Sentinel group's): A's write never reached the replica that was promoted.
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(history(
        1, {resourceEvent(1000, Kind::Acquired, "A", 0b1, 10000),
            masterEvent(3000, Kind::Failover, 0, QStringLiteral("10.0.0.1:6379 → 10.0.0.2:6379")),
            resourceEvent(3500, Kind::Lost, "A"), resourceEvent(5000, Kind::Acquired, "B", 0b1, 10000)}));
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.first().kind, SafetyIncident::Kind::FailoverLoss);
    QCOMPARE(found.first().confidence, SafetyIncident::Confidence::Proven);
    QCOMPARE(found.first().fromMs, 5000);
    QCOMPARE(found.first().toMs, 11000);
    QVERIFY(found.first().cause.contains(QLatin1String("failover")));

    // A taken 15 ms before its master went down, then a restart with persistence that came back
    // without it (tst_incidentsoak's fenced case): A's holder had released it in that moment, the
    // delete kept on disk, its keyspace event and its reply lost with the process. The record alone
    // cannot tell that from a lost copy: possible, and it says why.
    const QList<SafetyIncident> quick = DoubleGrantDetector::detect(history(
        1, {resourceEvent(1000, Kind::Acquired, "A", 0b1, 961),
            masterEvent(1015, Kind::MasterDown, 0, QStringLiteral("The remote host closed the connection")),
            masterEvent(1150, Kind::MasterRestarted, 0, QStringLiteral("run_id a1 → 9c")),
            resourceEvent(1195, Kind::Lost, "A"), resourceEvent(1224, Kind::Acquired, "B", 0b1, 979)}));
    QCOMPARE(quick.size(), 1);
    QCOMPARE(quick.first().kind, SafetyIncident::Kind::FailoverLoss);
    QCOMPARE(quick.first().confidence, SafetyIncident::Confidence::Possible);
    QVERIFY2(quick.first().cause.contains(QLatin1String("at work on it 15 ms before its master went away")) &&
                 quick.first().cause.contains(QLatin1String("restarted")),
             qPrintable(quick.first().cause));

    // The same without a failover: another token in A's key while A was valid.
    const QList<SafetyIncident> overwritten = DoubleGrantDetector::detect(history(
        1, {resourceEvent(1000, Kind::Acquired, "A", 0b1, 10000), resourceEvent(4000, Kind::Replaced, "A"),
            resourceEvent(4000, Kind::Acquired, "B", 0b1, 10000)}));
    QCOMPARE(overwritten.size(), 1);
    QCOMPARE(overwritten.first().kind, SafetyIncident::Kind::OverwrittenWhileHeld);
    // Without the delete seen, a release and re-take between two reads looks the same.
    QCOMPARE(overwritten.first().confidence, SafetyIncident::Confidence::Possible);

    // Told once: the holders after B took the lock from B (released, seen), not from A, whose
    // validity still runs (a soak of redis-py holders told A with each of them).
    const QList<SafetyIncident> once = DoubleGrantDetector::detect(history(
        1, {resourceEvent(1000, Kind::Acquired, "A", 0b1, 10000), resourceEvent(4000, Kind::Replaced, "A"),
            resourceEvent(4000, Kind::Acquired, "B", 0b1, 10000), resourceEvent(4100, Kind::Released, "B"),
            resourceEvent(4120, Kind::Acquired, "C", 0b1, 10000), resourceEvent(4200, Kind::Released, "C"),
            resourceEvent(4230, Kind::Acquired, "D", 0b1, 10000)}));
    QCOMPARE(once.size(), 1);
    QCOMPARE(once.first().secondToken, QByteArray("B"));

    // A token held beside the main one (contested) has no end of its own in the record when the
    // next holder takes its masters between two reads (node-redlock peers in the soak): a master
    // holds one value per key, so it is replaced there. Possible, never proven.
    const QList<SafetyIncident> beside =
        DoubleGrantDetector::detect(history(5, {resourceEvent(1000, Kind::Contested, "X", 0b11000, 1000),
                                                resourceEvent(1003, Kind::Holders, "X", 0b11100),
                                                resourceEvent(1006, Kind::Acquired, "Y", 0b11101, 1000)}));
    QCOMPARE(beside.size(), 1);
    QCOMPARE(beside.first().kind, SafetyIncident::Kind::OverwrittenWhileHeld);
    QCOMPARE(beside.first().confidence, SafetyIncident::Confidence::Possible);
}

void TestDoubleGrantDetector::handoversThatAreNoDoubleGrant()
{
    const QList<Case> cases{
        {"released, then taken",
         5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b11111, 10000), resourceEvent(2000, Kind::Released, "A"),
          resourceEvent(2001, Kind::Acquired, "B", 0b11111, 10000)}},
        {"expired, and taken long after",
         5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b11111, 9900), resourceEvent(11000, Kind::Expired, "A"),
          resourceEvent(30000, Kind::Acquired, "B", 0b11111, 10000)}},
        {"a minority lost, nobody else on a quorum",
         5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b00111, 29000),
          masterEvent(3000, Kind::MasterRestarted, 2, QStringLiteral("run_id")),
          resourceEvent(3100, Kind::Holders, "A", 0b00011),
          resourceEvent(5000, Kind::Contested, "B", 0b11000, 9000)}},
        {"contested, neither on a quorum",
         5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b00011, 9000),
          resourceEvent(1000, Kind::Contested, "B", 0b01100, 9000)}},
        {"a force-release, then taken",
         3,
         {resourceEvent(1000, Kind::Acquired, "A", 0b111, 60000),
          resourceEvent(2000, Kind::ForceReleased, "A"),
          resourceEvent(2500, Kind::Acquired, "B", 0b111, 60000)}},
        {"extended on every master, then released and taken",
         3,
         {resourceEvent(1000, Kind::Acquired, "A", 0b111, 2000),
          resourceEvent(2500, Kind::Extended, "A", 0b111, 2000),
          resourceEvent(2600, Kind::Holders, "A", 0b011), resourceEvent(4000, Kind::Released, "A"),
          resourceEvent(4001, Kind::Acquired, "B", 0b111, 2000)}},
        {"a release while a master was down leaves a copy there until it expires",
         5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b11111, 10000),
          masterEvent(1500, Kind::MasterDown, 1, QString()), resourceEvent(2000, Kind::Holders, "A", 0b00010),
          masterEvent(2500, Kind::MasterUp, 1, QString()),
          resourceEvent(2600, Kind::Contested, "B", 0b11101, 10000), resourceEvent(3000, Kind::Released, "B"),
          resourceEvent(11000, Kind::Expired, "A"),
          resourceEvent(11100, Kind::Acquired, "C", 0b11101, 10000)}},
        {"a Redlock release seen master by master",
         5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b11111, 10000),
          resourceEvent(2000, Kind::Holders, "A", 0b11100),
          resourceEvent(2001, Kind::Contested, "B", 0b00011, 10000),
          resourceEvent(2002, Kind::Holders, "A", 0b00000),
          resourceEvent(2003, Kind::Holders, "B", 0b11111)}},
        {"the same token again after its release",
         3,
         {resourceEvent(1000, Kind::Acquired, "A", 0b111, 2000), resourceEvent(1500, Kind::Released, "A"),
          resourceEvent(1600, Kind::Acquired, "A", 0b111, 2000)}},
    };
    for (const Case& c : cases) {
        const QList<SafetyIncident> found = DoubleGrantDetector::detect(history(c.masters, c.events));
        QVERIFY2(found.isEmpty(),
                 qPrintable(QStringLiteral("%1: %2").arg(QString::fromLatin1(c.name),
                                                         found.isEmpty() ? QString() : found.first().cause)));
    }
}

void TestDoubleGrantDetector::anExpiryHandoverIsPossibleOnly()
{
    // From the record alone a holder paused past its lease and one killed while holding look the
    // same: expired, not released, taken soon after. Possible, never more, and only soon after.
    const QList<Case> cases{
        {"a killed holder's lease ran out",
         5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b11111, 9900), resourceEvent(11000, Kind::Expired, "A"),
          resourceEvent(11050, Kind::Acquired, "B", 0b11111, 10000),
          resourceEvent(12000, Kind::Released, "B")}},
        {"the drift allowance: validity over before the keys expired",
         5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b00111, 1978), resourceEvent(3000, Kind::Expired, "A"),
          resourceEvent(3010, Kind::Acquired, "B", 0b00111, 2000), resourceEvent(4000, Kind::Released, "B")}},
        {"one master, expired then taken",
         1,
         {resourceEvent(1000, Kind::Acquired, "A", 0b1, 1000), resourceEvent(2100, Kind::Expired, "A"),
          resourceEvent(2200, Kind::Acquired, "B", 0b1, 1000), resourceEvent(2700, Kind::Released, "B")}},
        // tst_safetyincidents under load: the copies expire one master at a time after A's validity
        // (each counts the TTL from its own write) and are read apart; below the quorum that read
        // as a release, and B's lock as no handover at all.
        {"the masters' copies expiring one by one after the validity",
         5,
         {resourceEvent(1000, Kind::Acquired, "A", 0b11111, 2834),
          resourceEvent(3868, Kind::Holders, "A", 0b10110), resourceEvent(3875, Kind::Holders, "A", 0b00110),
          resourceEvent(3879, Kind::Expired, "A"), resourceEvent(3927, Kind::Holders, "A", 0b00100),
          resourceEvent(4044, Kind::Acquired, "B", 0b11111, 2943), resourceEvent(5063, Kind::Released, "B")}},
        {"replaced once its validity was over (the new SET NX expired it lazily)",
         1,
         {resourceEvent(1000, Kind::Acquired, "A", 0b1, 1000), resourceEvent(2050, Kind::Replaced, "A"),
          resourceEvent(2050, Kind::Acquired, "B", 0b1, 1000), resourceEvent(2500, Kind::Released, "B")}},
    };
    for (const Case& c : cases) {
        const QList<SafetyIncident> found = DoubleGrantDetector::detect(history(c.masters, c.events));
        QVERIFY2(found.size() == 1, c.name);
        // From B's quorum to B's release: how long A went on believing is not in the record.
        test::verifyIncident(found.first(),
                             {SafetyIncident::Kind::HandoverUnderLiveHolder,
                              SafetyIncident::Confidence::Possible, "A", "B",
                              c.events.at(c.events.size() - 2).event.timeMs, c.events.last().event.timeMs});
    }
}

void TestDoubleGrantDetector::aCopyGoneEarlyWithoutARestartIsNamed()
{
    // Every copy of A expired 22 s before its TTL said (clocks running fast), with no restart or
    // failover: A was not given up, so B on a quorum is a second holder, and the cause says so.
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(history(
        3, {resourceEvent(1000, Kind::Acquired, "A", 0b111, 30000), resourceEvent(9000, Kind::Expired, "A"),
            resourceEvent(9100, Kind::Acquired, "B", 0b111, 30000)}));
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.first().kind, SafetyIncident::Kind::MajorityOverlap);
    QCOMPARE(found.first().confidence, SafetyIncident::Confidence::Proven);
    QCOMPARE(found.first().toMs, 31000);
    QVERIFY2(found.first().cause.contains(QLatin1String("went from M1")) &&
                 found.first().cause.contains(QLatin1String("22000 ms before")),
             qPrintable(found.first().cause));
}

void TestDoubleGrantDetector::aLockWithoutATtlLostOnARestart()
{
    // No TTL: A never runs out. A restart without persistence forgets it on two of three masters.
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(
        history(3, {resourceEvent(1000, Kind::Acquired, "A", 0b111),
                    masterEvent(2000, Kind::MasterRestarted, 0, QStringLiteral("run_id")),
                    masterEvent(2000, Kind::MasterRestarted, 1, QStringLiteral("run_id")),
                    resourceEvent(2100, Kind::Holders, "A", 0b100),
                    resourceEvent(3000, Kind::Contested, "B", 0b011)}));
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.first().toMs, 100000); // the end of the session's watch: nobody gave it up
    QVERIFY(found.first().cause.contains(QLatin1String("restart")));
}

void TestDoubleGrantDetector::theOverlapEndsWithTheFirstToGiveUp()
{
    // A restart loses A on a quorum; B takes it; A releases (where it still is) long before either
    // validity ends: two holders only until then.
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(
        history(3, {resourceEvent(1000, Kind::Acquired, "A", 0b111, 60000),
                    masterEvent(2000, Kind::MasterRestarted, 0, QStringLiteral("run_id")),
                    masterEvent(2000, Kind::MasterRestarted, 1, QStringLiteral("run_id")),
                    resourceEvent(2100, Kind::Holders, "A", 0b100),
                    resourceEvent(3000, Kind::Contested, "B", 0b011, 60000),
                    resourceEvent(3500, Kind::Extended, "B", 0b011, 60000),
                    resourceEvent(5000, Kind::Released, "A"), resourceEvent(9000, Kind::Released, "B")}));
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.first().fromMs, 3000);
    QCOMPARE(found.first().toMs, 5000);
}

void TestDoubleGrantDetector::aFirstHolderLettingGoAtOnceIsPossibleOnly()
{
    // A on M1-M3 of five; M3 restarts empty (A keeps two copies, still the holder); B takes M3-M5,
    // which A no longer held. A's release seen `releasedAfter` ms after B's quorum: within what a
    // release takes to be seen, A's holder may have let go before B took the lock (the demo's
    // restart scenario under a loaded sanitizer build told such a handover as proven).
    const auto judge = [](qint64 releasedAfter) {
        return DoubleGrantDetector::detect(
            history(5, {resourceEvent(1000, Kind::Acquired, "A", 0b00111, 10000),
                        masterEvent(2000, Kind::MasterRestarted, 2, QStringLiteral("run_id")),
                        resourceEvent(2001, Kind::Holders, "A", 0b00011),
                        resourceEvent(3000, Kind::Contested, "B", 0b11100, 10000),
                        resourceEvent(3000 + releasedAfter, Kind::Released, "A"),
                        resourceEvent(6000, Kind::Released, "B")}));
    };
    const QList<SafetyIncident> soon = judge(DoubleGrantScan::releaseSeenWithinMs - 50);
    QCOMPARE(soon.size(), 1);
    QCOMPARE(soon.first().kind, SafetyIncident::Kind::MajorityOverlap);
    QCOMPARE(soon.first().confidence, SafetyIncident::Confidence::Possible);
    QVERIFY2(soon.first().cause.contains(QLatin1String("let it go 200 ms after")),
             qPrintable(soon.first().cause));
    QVERIFY2(soon.first().cause.contains(QLatin1String("restart")), qPrintable(soon.first().cause));
    QCOMPARE(soon.first().toMs, 3200);
    // Held on well past it: proven, by the quorums alone.
    const QList<SafetyIncident> later = judge(DoubleGrantScan::releaseSeenWithinMs + 50);
    QCOMPARE(later.size(), 1);
    QCOMPARE(later.first().confidence, SafetyIncident::Confidence::Proven);
    QVERIFY2(!later.first().cause.contains(QLatin1String("let it go")), qPrintable(later.first().cause));
    // B letting go first ends the overlap while A still holds: proven however short.
    const QList<SafetyIncident> secondFirst = DoubleGrantDetector::detect(
        history(5, {resourceEvent(1000, Kind::Acquired, "A", 0b00111, 10000),
                    masterEvent(2000, Kind::MasterRestarted, 2, QStringLiteral("run_id")),
                    resourceEvent(2001, Kind::Holders, "A", 0b00011),
                    resourceEvent(3000, Kind::Contested, "B", 0b11100, 10000),
                    resourceEvent(3020, Kind::Released, "B"), resourceEvent(3040, Kind::Released, "A")}));
    QCOMPARE(secondFirst.size(), 1);
    QCOMPARE(secondFirst.first().confidence, SafetyIncident::Confidence::Proven);
}

void TestDoubleGrantDetector::aDeleteRunAfterTheSecondsQuorumProvesAShortOverlap()
{
    // As above, A's release seen 100 ms after B's quorum (possible by the times alone), with what a
    // master's keyspace event said of when its delete of A's copy ran (DeletedAfter: after a PING sent
    // at `ranAfter`, answered before the event came). After B was seen on its quorum: A still held its
    // copy beside B's quorum, proven. Before it, or for another token: nothing more than before.
    const auto judge = [](qint64 ranAfter, const QByteArray& deleted) {
        HistoryEvent anchor = resourceEvent(ranAfter, Kind::DeletedAfter, deleted);
        anchor.event.master = 1;
        return DoubleGrantDetector::detect(
            history(5, {resourceEvent(1000, Kind::Acquired, "A", 0b00111, 10000),
                        masterEvent(2000, Kind::MasterRestarted, 2, QStringLiteral("run_id")),
                        resourceEvent(2001, Kind::Holders, "A", 0b00011),
                        resourceEvent(3000, Kind::Contested, "B", 0b11100, 10000), anchor,
                        resourceEvent(3100, Kind::Released, "A"), resourceEvent(6000, Kind::Released, "B")}));
    };
    const QList<SafetyIncident> proven = judge(3040, "A");
    QCOMPARE(proven.size(), 1);
    QCOMPARE(proven.first().kind, SafetyIncident::Kind::MajorityOverlap);
    QCOMPARE(proven.first().confidence, SafetyIncident::Confidence::Proven);
    QVERIFY2(proven.first().cause.contains(QLatin1String("master 2 still held its copy")),
             qPrintable(proven.first().cause));
    QVERIFY2(proven.first().cause.contains(QLatin1String("restart")), qPrintable(proven.first().cause));
    QCOMPARE(proven.first().fromMs, 3000);
    QCOMPARE(proven.first().toMs, 3100);
    for (const auto& [ranAfter, token] :
         QList<std::pair<qint64, QByteArray>>{{2990, "A"}, {3000, "A"}, {3040, "B"}}) {
        const QList<SafetyIncident> found = judge(ranAfter, token);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().confidence, SafetyIncident::Confidence::Possible);
        QVERIFY2(found.first().cause.contains(QLatin1String("perhaps before the other took it")),
                 qPrintable(found.first().cause));
    }
}

void TestDoubleGrantDetector::aValidityRunOutIsInDoubtOnlyWithinTheDriftAllowance()
{
    // The demo's restart scenario as safety-bench recorded it: A (TTL 3956 read with its quorum at
    // 1000, valid to 4956) lost M3 to a restart, B took M3-M5 before A's validity ran out, and A's
    // copies expired, unreleased. No release can have been seen late: A's end is its TTL's, in
    // doubt only within the drift allowance (100 + 3956 / 50 = 179 ms). It was held to the 250 ms a
    // release may take to be seen, and a 178 ms overlap so told "let it go".
    const auto judge = [](qint64 quorumOfB, Kind endOfA, qint64 endOfAMs) {
        return DoubleGrantDetector::detect(
            history(5, {resourceEvent(1000, Kind::Acquired, "A", 0b00111, 3956),
                        masterEvent(2100, Kind::MasterRestarted, 2, QStringLiteral("run_id")),
                        resourceEvent(2101, Kind::Holders, "A", 0b00011),
                        resourceEvent(quorumOfB, Kind::Contested, "B", 0b11100, 3956),
                        resourceEvent(endOfAMs, endOfA, "A"), resourceEvent(8000, Kind::Released, "B")}));
    };
    const auto verify = [](const QList<SafetyIncident>& found, SafetyIncident::Confidence confidence,
                           const char* says) {
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().kind, SafetyIncident::Kind::MajorityOverlap);
        QCOMPARE(found.first().confidence, confidence);
        QVERIFY2(found.first().cause.contains(QLatin1String(says)), qPrintable(found.first().cause));
    };
    verify(judge(4736, Kind::Expired, 5000), SafetyIncident::Confidence::Proven, "restarted");
    verify(judge(4778, Kind::Expired, 5000), SafetyIncident::Confidence::Possible,
           "its validity ran out unreleased 178 ms after the other token was seen on a quorum, within the "
           "179 ms");
    // Released, even when seen after its validity's end: the release may have come before B's quorum.
    verify(judge(4736, Kind::Released, 4900), SafetyIncident::Confidence::Possible, "let it go 164 ms");
    verify(judge(4736, Kind::Released, 5100), SafetyIncident::Confidence::Possible, "let it go 220 ms");
    if (QTest::currentTestFailed())
        return;
    const QList<SafetyIncident> proven = judge(4736, Kind::Expired, 5000);
    QCOMPARE(proven.first().fromMs, 4736);
    QCOMPARE(proven.first().toMs, 4956);
}

void TestDoubleGrantDetector::aValidityKnownToOutlastTheOthersQuorumIsProven()
{
    // The 178 ms overlap above, in doubt by the drift allowance: when B was seen on its quorum the
    // recorder knew A's TTLs, counted from when they were asked for, to last `floorLeft` ms more
    // (ValidThrough). A floor past B's quorum proves it; one before it, or a release, does not.
    const auto judge = [](qint64 floorLeft, Kind endOfA, qint64 floorSeenAt = 4778) {
        return DoubleGrantDetector::detect(
            history(5, {resourceEvent(1000, Kind::Acquired, "A", 0b00111, 3956),
                        masterEvent(2100, Kind::MasterRestarted, 2, QStringLiteral("run_id")),
                        resourceEvent(2101, Kind::Holders, "A", 0b00011),
                        resourceEvent(floorSeenAt, Kind::ValidThrough, "A", 0, floorLeft),
                        resourceEvent(4778, Kind::Contested, "B", 0b11100, 3956),
                        resourceEvent(5000, endOfA, "A"), resourceEvent(8000, Kind::Released, "B")}));
    };
    const QList<SafetyIncident> proven = judge(150, Kind::Expired);
    QCOMPARE(proven.size(), 1);
    test::verifyIncident(proven.first(), {SafetyIncident::Kind::MajorityOverlap,
                                          SafetyIncident::Confidence::Proven, "A", "B", 4778, 4956});
    QVERIFY2(proven.first().cause.contains(QLatin1String("lasted until")) &&
                 proven.first().cause.contains(QLatin1String("restarted")),
             qPrintable(proven.first().cause));
    struct Doubt
    {
        qint64 floorLeft;
        Kind endOfA;
        qint64 floorSeenAt;
    };
    for (const Doubt& d : {Doubt{0, Kind::Expired, 4778}, Doubt{60, Kind::Expired, 4700},
                           Doubt{78, Kind::Expired, 4700}, Doubt{150, Kind::Released, 4778}}) {
        const QList<SafetyIncident> found = judge(d.floorLeft, d.endOfA, d.floorSeenAt);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().confidence, SafetyIncident::Confidence::Possible);
    }
}

void TestDoubleGrantDetector::validityCountsFromItsReadNotFromTheQuorum()
{
    // The demo's restart scenario as a loaded sanitizer build recorded it (times from its file):
    // B's TTL was read at 3649 on M3 and M5, its quorum seen at 3900 once M4 was read again. Its
    // deadline is 3649 + 3772 = 7421, not 3900 + 3772; its expiry read at 7460 is on time, and C
    // taking the lock 33 ms later a handover, at most possible (it was told as a proven overlap).
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(
        history(5, {resourceEvent(2433, Kind::Acquired, "A", 0b00111, 3956),
                    masterEvent(2764, Kind::MasterRestarted, 2, QStringLiteral("run_id")),
                    resourceEvent(2899, Kind::Holders, "A", 0b00011),
                    resourceEvent(3649, Kind::Contested, "B", 0b10100, 3772),
                    resourceEvent(3900, Kind::Holders, "B", 0b11100), resourceEvent(6431, Kind::Expired, "A"),
                    resourceEvent(7460, Kind::Expired, "B", 0b11100),
                    resourceEvent(7493, Kind::Acquired, "C", 0b11111, 3944),
                    resourceEvent(8807, Kind::Released, "C")}));
    for (const SafetyIncident& i : found)
        qInfo("%s %s/%s: %s", qPrintable(safetyConfidenceName(i.confidence)), i.firstToken.constData(),
              i.secondToken.constData(), qPrintable(i.cause));
    QVERIFY(!found.isEmpty());
    QCOMPARE(found.first().firstToken, QByteArray("A"));
    QCOMPARE(found.first().secondToken, QByteArray("B"));
    QCOMPARE(found.first().confidence, SafetyIncident::Confidence::Proven);
    QCOMPARE(found.first().toMs, 2433 + 3956);
    for (const SafetyIncident& i : found)
        if (i.secondToken == "C") {
            QCOMPARE(i.kind, SafetyIncident::Kind::HandoverUnderLiveHolder); // B's expiry was on time
            QCOMPARE(i.confidence, SafetyIncident::Confidence::Possible);
        }
}

void TestDoubleGrantDetector::evidenceStaysShortForALongRenewedHold()
{
    QList<HistoryEvent> events{resourceEvent(1000, Kind::Acquired, "A", 0b111, 2000)};
    for (int i = 1; i <= 10000; ++i)
        events << resourceEvent(1000 + i * 1000, Kind::Extended, "A", 0b111, 2000);
    events << masterEvent(10001500, Kind::MasterRestarted, 0, QStringLiteral("run_id"))
           << masterEvent(10001500, Kind::MasterRestarted, 1, QStringLiteral("run_id"))
           << resourceEvent(10001600, Kind::Holders, "A", 0b100)
           << resourceEvent(10001700, Kind::Contested, "B", 0b011, 2000);
    ResourceHistory h = history(3, events);
    h.sessions.first().lastMs = 20000000;
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(h);
    QCOMPARE(found.size(), 1);
    QVERIFY2(found.first().evidence.size() < 20, qPrintable(found.first().evidence.join(QLatin1Char('\n'))));
    QVERIFY(found.first().evidence.join(QLatin1Char('\n')).contains(QLatin1String("more events")));
    // The last few, oldest first (kept in a ring), end with the copy going to one master.
    const QStringList lines = found.first().evidence;
    const qsizetype skipped =
        std::find_if(lines.cbegin(), lines.cend(),
                     [](const QString& l) { return l.contains(QLatin1String("more events")); }) -
        lines.cbegin();
    QStringList tail;
    for (qsizetype i = skipped + 1; i < lines.size() && !lines.at(i).contains(QLatin1String("master-")); ++i)
        tail << lines.at(i);
    QVERIFY2(tail.size() == 5, qPrintable(lines.join(QLatin1Char('\n'))));
    QStringList sorted = tail;
    sorted.sort();
    QCOMPARE(tail, sorted);
    QVERIFY2(tail.last().contains(QLatin1String("holders A on M3")),
             qPrintable(tail.join(QLatin1Char('\n'))));
}

void TestDoubleGrantDetector::aBusyLockIsJudgedAfterManyHandovers()
{
    // 20,000 clean handovers (the tokens given up are forgotten as it goes), then the restart case.
    QList<HistoryEvent> events;
    qint64 t = 1000;
    for (int i = 0; i < 20000; ++i, t += 10) {
        const QByteArray token = "T" + QByteArray::number(i);
        events << resourceEvent(t, Kind::Acquired, token, 0b111, 2000)
               << resourceEvent(t + 5, Kind::Released, token);
    }
    events << resourceEvent(t, Kind::Acquired, "A", 0b111, 60000)
           << masterEvent(t + 100, Kind::MasterRestarted, 0, QStringLiteral("run_id"))
           << masterEvent(t + 100, Kind::MasterRestarted, 1, QStringLiteral("run_id"))
           << resourceEvent(t + 200, Kind::Holders, "A", 0b100)
           << resourceEvent(t + 300, Kind::Contested, "B", 0b011, 60000);
    ResourceHistory h = history(3, events);
    h.sessions.first().lastMs = t + 1000;
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(h);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.first().firstToken, QByteArray("A"));
    QCOMPARE(found.first().fromMs, t + 300);
    QCOMPARE(found.first().toMs, t + 1000);
}

void TestDoubleGrantDetector::aRestartBeforeACopyWasWrittenExplainsNothing()
{
    // Recorded by a sanitizer CI run (issue #48's false alarm), times from 0: A beside another token
    // on M3; M5 and M4 restart; only then is A seen on M3-M5, a quorum; A's holder releases it (the
    // recorder of the time called that "lost", a restart having come during the episode); B takes
    // all five. The restarts came before A's copies on M4 and M5 existed: they lost nothing, and
    // A's end was a release. No overlap at probable or proven.
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(
        history(5, {resourceEvent(0, Kind::Contested, "A", 0b00100, 3900),
                    masterEvent(56, Kind::MasterRestarted, 4, QStringLiteral("run_id 6d → 05")),
                    masterEvent(78, Kind::MasterRestarted, 3, QStringLiteral("run_id c8 → 48")),
                    resourceEvent(249, Kind::Holders, "A", 0b11100), resourceEvent(1224, Kind::Lost, "A"),
                    resourceEvent(3286, Kind::Acquired, "B", 0b11111, 3941)}));
    for (const SafetyIncident& i : found)
        QVERIFY2(i.confidence == SafetyIncident::Confidence::Possible, qPrintable(i.cause));
    // The same copies partly released, M4 first, with B on a quorum before the rest went: M4's drop
    // is no loss to a restart that came before A reached it, so A had given the lock up.
    const QList<SafetyIncident> partly = DoubleGrantDetector::detect(history(
        5, {resourceEvent(0, Kind::Contested, "A", 0b00100, 3900),
            masterEvent(56, Kind::MasterRestarted, 4, QStringLiteral("run_id 6d → 05")),
            masterEvent(78, Kind::MasterRestarted, 3, QStringLiteral("run_id c8 → 48")),
            resourceEvent(249, Kind::Holders, "A", 0b11100), resourceEvent(1200, Kind::Holders, "A", 0b10100),
            resourceEvent(1210, Kind::Contested, "B", 0b01011, 3941),
            resourceEvent(1250, Kind::Released, "A")}));
    for (const SafetyIncident& i : partly)
        QVERIFY2(i.confidence == SafetyIncident::Confidence::Possible, qPrintable(i.cause));
    // A restart after the copy was there still explains its loss: proven, as before.
    const QList<SafetyIncident> real = DoubleGrantDetector::detect(
        history(5, {resourceEvent(0, Kind::Acquired, "A", 0b11100, 3900),
                    masterEvent(300, Kind::MasterRestarted, 3, QStringLiteral("run_id c8 → 48")),
                    resourceEvent(400, Kind::Holders, "A", 0b10100),
                    resourceEvent(500, Kind::Contested, "B", 0b01011, 3941)}));
    QCOMPARE(real.size(), 1);
    QCOMPARE(real.first().confidence, SafetyIncident::Confidence::Proven);
}

void TestDoubleGrantDetector::aReleaseAndRetakeBetweenTwoReadsIsNoProvenOverlap()
{
    // Recorded by a fresh-clone CI run (tst_incidentsoak, RedlockMutex on five masters), times from
    // 0: C on all five; M5 goes down; C's holder releases it, and D takes M1 between two reads, so
    // the record shows C leave M1 (nothing explains it) and D arrive there; C then goes from the
    // rest ("lost", M5 being down); D holds M1-M4. Without keyspace events this is a release and
    // re-take as much as an overwrite: possible at most, never proven.
    const QList<SafetyIncident> found = DoubleGrantDetector::detect(history(
        5,
        {resourceEvent(0, Kind::Contested, "C", 0b10101, 986), resourceEvent(3, Kind::Holders, "C", 0b11111),
         masterEvent(32, Kind::MasterDown, 4, QStringLiteral("The remote host closed the connection")),
         resourceEvent(34, Kind::Holders, "C", 0b11110),
         resourceEvent(34, Kind::Contested, "D", 0b00001, 986), resourceEvent(37, Kind::Lost, "C"),
         resourceEvent(37, Kind::Holders, "D", 0b01111)}));
    for (const SafetyIncident& i : found)
        QVERIFY2(i.confidence == SafetyIncident::Confidence::Possible, qPrintable(i.cause));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestDoubleGrantDetector)

} // namespace tst_doublegrantdetector

#include "tst_doublegrantdetector.moc"
