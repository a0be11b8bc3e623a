// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/clientlistentry.h"
#include "diagnosis/diagnosis.h"
#include "diagnosis/diagnosisreader.h"
#include "diagnosis/lockstorytracker.h"
#include "support/heldobservation.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_lockdiagnosis {

using namespace lockscope;
using namespace lockscope::test;

namespace {

constexpr qint64 wall0 = 1'800'000'000'000; // a wall-clock moment, ms since the epoch
constexpr qint64 mono0 = 50'000;            // the same moment on the monotonic clock

// One master's read of `token` with `pttlMs` (-1: no TTL), read at `readAtMs` (monotonic).
MasterObservation held(const QByteArray& token, qint64 pttlMs, qint64 readAtMs = mono0,
                       QList<LockHolder> holders = {})
{
    return heldObservation(token, pttlMs, readAtMs,
                           holders.isEmpty() ? QList<LockHolder>{LockHolder{token, QString(), 1, -1}}
                                             : holders);
}

MasterObservation absent()
{
    return MasterObservation(KeyObservation{}, RecognizedLock{});
}

MasterObservation down()
{
    MasterObservation m = absent();
    m.setError(RedisError(ErrorKind::ConnectionLost, QStringLiteral("redis://m"), QStringLiteral("refused")));
    return m;
}

LockView viewOf(LockStatus status, const QByteArray& token, QList<MasterObservation> observations,
                qint64 validityMs, qint64 computedAtMs = mono0)
{
    LockView v;
    v.resource = "orders";
    v.status = status;
    v.format = LockFormat::PlainToken;
    v.token = token;
    v.total = int(observations.size());
    v.needed = v.total / 2 + 1;
    v.observations = observations;
    for (int i = 0; i < observations.size(); ++i)
        if (observations.at(i).present() && observations.at(i).lock().token == token) {
            v.holders << i;
            ++v.holding;
        }
    v.validityMs = validityMs;
    v.computedAtMs = computedAtMs;
    return v;
}

DiagnosisContext at(qint64 elapsedMs)
{
    DiagnosisContext c;
    c.masterNames = {QStringLiteral("M1"), QStringLiteral("M2"), QStringLiteral("M3")};
    c.nowMs = wall0 + elapsedMs;
    c.monotonicNowMs = mono0 + elapsedMs;
    return c;
}

// A holder first seen at wall0 that has been extended `extensions` times, from `firstMs` to `lastMs`
// after wall0, its TTL read as `ttlMs` after the last one (and its lease).
LockStory renewed(int extensions, qint64 firstMs, qint64 lastMs, qint64 ttlMs)
{
    LockStory s;
    s.token = "t1";
    s.firstSeenMs = wall0;
    s.extensions = extensions;
    s.firstExtensionMs = wall0 + firstMs;
    s.lastExtensionMs = wall0 + lastMs;
    s.lastExtensionTtlMs = ttlMs;
    s.leaseMs = ttlMs;
    return s;
}

QList<DiagnosisCode> codes(const QList<Diagnosis>& ds)
{
    QList<DiagnosisCode> out;
    for (const Diagnosis& d : ds)
        out << d.code;
    return out;
}

} // namespace

class TestLockDiagnosis : public QObject
{
    Q_OBJECT

private slots:
    void healthyLockHasNoDiagnosis();
    void noExpiryNamesTheMasters();
    void timestampPastSaysWhen();
    void quorumLostAndUnreachable();
    void contestedListsTheTokens();
    void atRiskGivesTheReason();
    void trackerCountsExtensionsAndLease();
    void renewalLoopIsHeldTooLong();
    void factorIsConfigurable();
    void stoppedRenewalsAreNotRenewed();
    void waitersWithQueueDeadlines();
    void ownerConnectedAndGone();
    void ownerClientGoesWithItsHolder();
    void clientListParsesAndMatches();
};

void TestLockDiagnosis::healthyLockHasNoDiagnosis()
{
    const LockView v =
        viewOf(LockStatus::Held, "t1", {held("t1", 9000), held("t1", 9000), held("t1", 9000)}, 8900);
    QVERIFY(LockDiagnosis::diagnose(v, LockStory(), DiagnosisFacts(), at(0)).isEmpty());
}

void TestLockDiagnosis::noExpiryNamesTheMasters()
{
    const LockView v = viewOf(LockStatus::Stuck, "t1", {held("t1", -1), absent(), held("t1", -1)}, -1);
    const QList<Diagnosis> ds = LockDiagnosis::diagnose(v, LockStory(), DiagnosisFacts(), at(0));
    QCOMPARE(codes(ds), QList<DiagnosisCode>{DiagnosisCode::NoExpiry});
    QVERIFY2(ds.at(0).sentence.contains(QStringLiteral("no TTL on M1, M3")), qPrintable(ds.at(0).sentence));
    QVERIFY(ds.at(0).sentence.contains(QStringLiteral("token t1")));
    QCOMPARE(diagnosisCodeName(DiagnosisCode::NoExpiry), QStringLiteral("no-expiry"));
}

void TestLockDiagnosis::timestampPastSaysWhen()
{
    KeyObservation key;
    key.present = true;
    key.type = "string";
    key.value = "1799999880";
    key.pttlMs = -1;
    RecognizedLock lock;
    lock.format = LockFormat::LegacyTimestamp;
    lock.token = key.value;
    lock.expiredByTimestamp = true;
    lock.setExpiresAtMs(wall0 - 120'000);
    LockView v = viewOf(LockStatus::Stuck, key.value, {MasterObservation(key, lock)}, -1);
    v.format = LockFormat::LegacyTimestamp;
    const QList<Diagnosis> ds = LockDiagnosis::diagnose(v, LockStory(), DiagnosisFacts(), at(0));
    QCOMPARE(codes(ds), QList<DiagnosisCode>{DiagnosisCode::TimestampPast});
    QVERIFY2(ds.at(0).sentence.contains(QStringLiteral("2027-01-15 07:58:00.000 UTC")) &&
                 ds.at(0).sentence.contains(QStringLiteral("2 m 00 s ago")),
             qPrintable(ds.at(0).sentence));
}

void TestLockDiagnosis::quorumLostAndUnreachable()
{
    const LockView partial = viewOf(LockStatus::Partial, "t1", {held("t1", 5000), absent(), down()}, -1);
    QList<Diagnosis> ds = LockDiagnosis::diagnose(partial, LockStory(), DiagnosisFacts(), at(0));
    QCOMPARE(codes(ds), QList<DiagnosisCode>{DiagnosisCode::QuorumLost});
    QVERIFY2(ds.at(0).sentence.contains(QStringLiteral("on 1 of 3 masters (M1), 2 needed (unreachable: M3)")),
             qPrintable(ds.at(0).sentence));

    const LockView unknown = viewOf(LockStatus::Unknown, "t1", {held("t1", 5000), down(), down()}, -1);
    ds = LockDiagnosis::diagnose(unknown, LockStory(), DiagnosisFacts(), at(0));
    QCOMPARE(codes(ds), QList<DiagnosisCode>{DiagnosisCode::QuorumLost});
    QVERIFY2(
        ds.at(0).sentence.contains(QStringLiteral("2 of 3 masters cannot be reached (unreachable: M2, M3)")),
        qPrintable(ds.at(0).sentence));
}

void TestLockDiagnosis::contestedListsTheTokens()
{
    const LockView v =
        viewOf(LockStatus::Contested, "a", {held("a", 5000), held("a", 5000), held("b", 5000)}, 4000);
    const QList<Diagnosis> ds = LockDiagnosis::diagnose(v, LockStory(), DiagnosisFacts(), at(0));
    QCOMPARE(codes(ds), QList<DiagnosisCode>{DiagnosisCode::Contested});
    QVERIFY2(ds.at(0).sentence.contains(QStringLiteral("2 different tokens are held (a on M1, M2; b on M3)")),
             qPrintable(ds.at(0).sentence));
}

void TestLockDiagnosis::atRiskGivesTheReason()
{
    LockView v = viewOf(LockStatus::Held, "t1", {held("t1", 9000), held("t1", 9000), held("t1", 9000)}, 8000);
    v.atRisk = true;
    v.setAtRiskReason(QStringLiteral("M2 restarted (new run_id)"));
    const QList<Diagnosis> ds = LockDiagnosis::diagnose(v, LockStory(), DiagnosisFacts(), at(0));
    QCOMPARE(codes(ds), QList<DiagnosisCode>{DiagnosisCode::AtRisk});
    QVERIFY(ds.at(0).sentence.contains(QStringLiteral("M2 restarted (new run_id)")));
}

void TestLockDiagnosis::trackerCountsExtensionsAndLease()
{
    LockStoryTracker tracker;
    // Read at 0 with 10 s left, then counting down (no extension), then back up twice.
    const auto see = [&](qint64 t, qint64 ttl) {
        tracker.observe(viewOf(LockStatus::Held, "t1", {held("t1", ttl, mono0 + t)}, ttl, mono0 + t),
                        wall0 + t, mono0 + t);
    };
    see(0, 10'000);
    see(3'000, 7'010); // the same lease, read 10 ms later than counted: not an extension
    QCOMPARE(tracker.story("orders", "t1").extensions, 0);
    see(4'000, 10'000);
    see(8'000, 10'000);
    const LockStory s = tracker.story("orders", "t1");
    QCOMPARE(s.token, QByteArray("t1"));
    QCOMPARE(s.firstSeenMs, wall0);
    QCOMPARE(s.extensions, 2);
    QCOMPARE(s.firstExtensionMs, wall0 + 4'000);
    QCOMPARE(s.lastExtensionMs, wall0 + 8'000);
    QCOMPARE(s.leaseMs, 10'000);
    QCOMPARE(s.lastReading->atMs, wall0 + 8'000);
    QCOMPARE(s.lastReading->ttlMs, 10'000);
    // The latest reading is what the next one is compared with: counting down from it is no
    // extension, a TTL above it is.
    see(9'000, 9'000);
    QCOMPARE(tracker.story("orders", "t1").extensions, 2);
    see(10'000, 9'500);
    const LockStory later = tracker.story("orders", "t1");
    QCOMPARE(later.extensions, 3);
    QCOMPARE(later.lastExtensionMs, wall0 + 10'000);
    QCOMPARE(later.lastReading->atMs, wall0 + 10'000);
    QCOMPARE(later.lastReading->ttlMs, 9'500);
    // Another holder starts another story; a lock that goes away forgets it.
    tracker.observe(viewOf(LockStatus::Held, "t2", {held("t2", 5000, mono0 + 9000)}, 5000, mono0 + 9000),
                    wall0 + 9000, mono0 + 9000);
    QCOMPARE(tracker.story("orders", "t2").extensions, 0);
    QCOMPARE(tracker.story("orders", "t2").firstSeenMs, wall0 + 9000);
    QCOMPARE(tracker.story("orders", "t1"), LockStory()); // asked for the holder before: none
    tracker.observe(LockBatch{{}, {}, {"orders"}}, wall0, mono0);
    QCOMPARE(tracker.size(), 0);
}

void TestLockDiagnosis::renewalLoopIsHeldTooLong()
{
    const LockStory s = renewed(40, 10'000, 400'000, 30'000);
    const LockView v =
        viewOf(LockStatus::Held, "t1", {held("t1", 29'000, mono0 + 401'000)}, 28'900, mono0 + 401'000);
    const QList<Diagnosis> ds = LockDiagnosis::diagnose(v, s, DiagnosisFacts(), at(401'000));
    QCOMPARE(codes(ds), QList<DiagnosisCode>{DiagnosisCode::HeldTooLong});
    QVERIFY2(ds.at(0).sentence.contains(QStringLiteral("at least 6 m 41 s")) &&
                 ds.at(0).sentence.contains(
                     QStringLiteral("13.4× its 30.0 s lease, extended 40 times, the last 1.0 s ago")),
             qPrintable(ds.at(0).sentence));
    // Below N × lease: nothing yet.
    QVERIFY(LockDiagnosis::diagnose(v, s, DiagnosisFacts(), at(250'000)).isEmpty() ||
            !codes(LockDiagnosis::diagnose(v, s, DiagnosisFacts(), at(250'000)))
                 .contains(DiagnosisCode::HeldTooLong));
}

void TestLockDiagnosis::factorIsConfigurable()
{
    const LockStory s = renewed(3, 500, 2'900, 1'000);
    const LockView v = viewOf(LockStatus::Held, "t1", {held("t1", 1000, mono0 + 3000)}, 1000, mono0 + 3000);
    DiagnosisContext c = at(3'000);
    QVERIFY(!codes(LockDiagnosis::diagnose(v, s, DiagnosisFacts(), c)).contains(DiagnosisCode::HeldTooLong));
    c.settings.heldTooLongFactor = 2;
    QVERIFY(codes(LockDiagnosis::diagnose(v, s, DiagnosisFacts(), c)).contains(DiagnosisCode::HeldTooLong));
}

void TestLockDiagnosis::stoppedRenewalsAreNotRenewed()
{
    const LockStory s = renewed(5, 1'000, 5'000, 8'000); // about every 1 s
    // 1.5 s after the last one: within twice the gap and the minimum quiet time.
    LockView v = viewOf(LockStatus::Held, "t1", {held("t1", 6'500, mono0 + 6'500)}, 6'500, mono0 + 6'500);
    QVERIFY(LockDiagnosis::diagnose(v, s, DiagnosisFacts(), at(6'500)).isEmpty());
    // 3 s after it, the TTL down to 5 s.
    v = viewOf(LockStatus::Held, "t1", {held("t1", 5'000, mono0 + 8'000)}, 5'000, mono0 + 8'000);
    const QList<Diagnosis> ds = LockDiagnosis::diagnose(v, s, DiagnosisFacts(), at(8'000));
    QCOMPARE(codes(ds), QList<DiagnosisCode>{DiagnosisCode::NotRenewed});
    QVERIFY2(
        ds.at(0).sentence.contains(QStringLiteral("extended 5 times (about every 1.0 s) until 3.0 s ago")) &&
            ds.at(0).sentence.contains(QStringLiteral("from 8.0 s to 5.0 s")),
        qPrintable(ds.at(0).sentence));
    // Never extended: a lock counting down its only lease is not "no longer renewed".
    LockStory story;
    story.token = "t1";
    story.firstSeenMs = wall0;
    QVERIFY(LockDiagnosis::diagnose(v, story, DiagnosisFacts(), at(8'000)).isEmpty());
}

void TestLockDiagnosis::waitersWithQueueDeadlines()
{
    LockView v = viewOf(LockStatus::Held, "t1", {held("t1", 9000)}, 8900);
    v.format = LockFormat::Redisson;
    DiagnosisFacts f;
    f.waiters.known = true;
    f.waiters.master = 0;
    f.waiters.channel = "redisson_lock__channel:{orders}";
    f.waiters.subscribers = 2;
    f.waiters.queue = {QueuedWaiter{"u1:61", wall0 + 4'000}, QueuedWaiter{"u2:62", wall0 - 1'000}};
    const QList<Diagnosis> ds = LockDiagnosis::diagnose(v, LockStory(), f, at(0));
    QCOMPARE(codes(ds), QList<DiagnosisCode>{DiagnosisCode::Waiters});
    QVERIFY2(ds.at(0).sentence.contains(QStringLiteral("2 client(s) wait for it (subscribed to "
                                                       "redisson_lock__channel:{orders} on M1)")) &&
                 ds.at(0).sentence.contains(QStringLiteral("queue holds 2: u1:61 until")) &&
                 ds.at(0).sentence.contains(QStringLiteral("(in 4.0 s)")) &&
                 ds.at(0).sentence.contains(QStringLiteral("(1.0 s ago)")),
             qPrintable(ds.at(0).sentence));
    f.waiters.subscribers = 0;
    f.waiters.queue.clear();
    QVERIFY(LockDiagnosis::diagnose(v, LockStory(), f, at(0)).isEmpty());
}

void TestLockDiagnosis::ownerConnectedAndGone()
{
    const LockView v = viewOf(LockStatus::Held, "t1", {held("t1", 9000)}, 8900);
    DiagnosisFacts f;
    f.clientsRead = true;
    f.owners = {OwnerClient{0, "t1", "name", 12, "worker-7", "127.0.0.1:5001", 300, 42}};
    QList<Diagnosis> ds = LockDiagnosis::diagnose(v, LockStory(), f, at(0));
    QCOMPARE(codes(ds), QList<DiagnosisCode>{DiagnosisCode::OwnerConnected});
    QVERIFY2(
        ds.at(0).sentence.contains(QStringLiteral("client 'worker-7' 127.0.0.1:5001 (id 12) on M1, matched "
                                                  "by name, connected 5 m 00 s, idle 42.0 s")),
        qPrintable(ds.at(0).sentence));

    LockStoryTracker tracker;
    tracker.observe(v, wall0, mono0);
    tracker.noteOwners("orders", f, wall0);
    f.owners.clear();
    ds = LockDiagnosis::diagnose(v, tracker.story("orders", v.token), f, at(1000));
    QCOMPARE(codes(ds), QList<DiagnosisCode>{DiagnosisCode::OwnerDisconnected});
    QVERIFY2(ds.at(0).sentence.contains(QStringLiteral("client 'worker-7' 127.0.0.1:5001 (id 12)")),
             qPrintable(ds.at(0).sentence));
    // CLIENT LIST not read: nothing is said about the connection.
    f.clientsRead = false;
    QVERIFY(LockDiagnosis::diagnose(v, tracker.story("orders", v.token), f, at(1000)).isEmpty());
}

void TestLockDiagnosis::ownerClientGoesWithItsHolder()
{
    DiagnosisFacts f;
    f.clientsRead = true;
    f.owners = {OwnerClient{0, "t1", "name", 12, "worker-7", "127.0.0.1:5001", 300, 42}};
    LockStoryTracker tracker;
    const auto see = [&](const QByteArray& token) {
        tracker.observe(viewOf(LockStatus::Held, token, {held(token, 9000)}, 8900), wall0, mono0);
    };
    // Known for the lock it was read for, from then on, whatever else the story gains.
    see("t1");
    QVERIFY(tracker.story("orders", "t1").ownerClient.isEmpty());
    tracker.noteOwners("orders", f, wall0 + 5);
    tracker.noteOwners("other", f, wall0 + 5); // no story: nothing to note it on
    see("t1");
    LockStory s = tracker.story("orders", "t1");
    QCOMPARE(s.ownerClient, QStringLiteral("client 'worker-7' 127.0.0.1:5001 (id 12)"));
    QCOMPARE(s.ownerClientSeenMs, wall0 + 5);
    QVERIFY(tracker.story("other", "t1").ownerClient.isEmpty());
    // Another holder: another story, without the connection of the one before.
    see("t2");
    s = tracker.story("orders", "t2");
    QCOMPARE(s.token, QByteArray("t2"));
    QCOMPARE(tracker.story("orders", "t1"), LockStory());
    QVERIFY(s.ownerClient.isEmpty());
    QCOMPARE(s.ownerClientSeenMs, -1);
    // Gone and back: nothing of it is left.
    tracker.noteOwners("orders", f, wall0 + 6);
    tracker.forget("orders");
    QCOMPARE(tracker.size(), 0);
    see("t2");
    QVERIFY(tracker.story("orders", "t2").ownerClient.isEmpty());
    // No holder (a master down): the story, connection and all, starts over.
    tracker.noteOwners("orders", f, wall0 + 7);
    see(QByteArray());
    QCOMPARE(tracker.story("orders", "t2"), LockStory());
}

void TestLockDiagnosis::clientListParsesAndMatches()
{
    const QByteArray reply =
        "id=3 addr=127.0.0.1:40000 laddr=127.0.0.1:6379 fd=8 name=lockscope-scan age=9 idle=0\n"
        "id=4 addr=127.0.0.1:40001 laddr=127.0.0.1:6379 fd=9 name=b3f1c9e2-aaaa age=70 idle=65\n"
        "id=5 addr=10.0.0.9:4242 laddr=127.0.0.1:6379 fd=10 name= age=1 idle=1\n"
        "id=6 addr=127.0.0.1:40002 fd=11 name=app age=1 idle=1\n";
    const QList<ClientListEntry> clients = ClientListEntry::parse(reply);
    QCOMPARE(clients.size(), 4);
    QCOMPARE(clients.at(1).name, QByteArray("b3f1c9e2-aaaa"));
    QCOMPARE(clients.at(1).idleS, 65);
    QCOMPARE(clients.at(2).address, QByteArray("10.0.0.9:4242"));

    // A Redisson field names its instance: a client named after that instance is its connection.
    LockView v =
        viewOf(LockStatus::Held, "b3f1c9e2-aaaa:57",
               {held("b3f1c9e2-aaaa:57", 9000, mono0, {LockHolder{"b3f1c9e2-aaaa:57", {}, 1, -1}})}, 8900);
    QList<OwnerClient> owners = DiagnosisReader::matchOwners(v, 0, clients);
    QCOMPARE(owners.size(), 1);
    QCOMPARE(owners.at(0).clientId, 4);
    QCOMPARE(owners.at(0).matchedBy, QByteArray("name"));
    // An owner that carries its address; short names ("app") and our own connections never match.
    v = viewOf(LockStatus::Held, "host/10.0.0.9:4242/abc", {held("host/10.0.0.9:4242/abc", 9000)}, 8900);
    owners = DiagnosisReader::matchOwners(v, 0, clients);
    QCOMPARE(owners.size(), 1);
    QCOMPARE(owners.at(0).clientId, 5);
    QCOMPARE(owners.at(0).matchedBy, QByteArray("address"));
    v = viewOf(LockStatus::Held, "lockscope-scan-app-token", {held("lockscope-scan-app-token", 9000)}, 8900);
    QVERIFY(DiagnosisReader::matchOwners(v, 0, clients).isEmpty());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockDiagnosis)

} // namespace tst_lockdiagnosis

#include "tst_lockdiagnosis.moc"
