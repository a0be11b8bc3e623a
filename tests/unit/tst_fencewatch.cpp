// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/doublegrantdetector.h"
#include "diagnosis/doublegrantscan.h"
#include "formats/auxiliaryformats.h"
#include "support/incidentexpectation.h"
#include "support/recordevents.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_fencewatch {

using namespace lockscope;

namespace {

using Kind = RecordEvent::Kind;
using Incident = SafetyIncident;

// Events of session 1 about resource "r" on three masters.
struct Story
{
    Story& read(qint64 ms, int master, qint64 value)
    {
        RecordEvent e = fenceCounterEvent(master, "r", "redisson_lock_token:{r}", value);
        e.timeMs = ms;
        return add(e);
    }
    Story& master(qint64 ms, Kind kind, int master)
    {
        return add(test::masterEvent(ms, kind, master, QStringLiteral("run_id a1 → 9c")));
    }
    Story& lock(qint64 ms, Kind kind, const QByteArray& token, quint64 holders = 0, qint64 ttlMs = -1)
    {
        return add(test::lockEvent(ms, kind, "r", token, holders, ttlMs));
    }
    Story& add(const RecordEvent& e)
    {
        HistoryEvent h;
        h.session = 1;
        h.id = history.events.size() + 1;
        h.event = e;
        history.events << h;
        return *this;
    }
    QList<Incident> detect()
    {
        history.resource = "r";
        RecordingSession s;
        s.id = 1;
        s.lastMs = 100000;
        s.masters = {QStringLiteral("redis://a:1"), QStringLiteral("redis://b:1"),
                     QStringLiteral("redis://c:1")};
        history.sessions = {s};
        return DoubleGrantDetector::detect(history);
    }
    ResourceHistory history;
};

} // namespace

// Issue #42's fencing regression: a fencing counter read lower on a master than it read there
// before (a restart without persistence, a failover to a replica behind, a write by someone else).
class TestFenceWatch : public QObject
{
    Q_OBJECT

private slots:
    void aRisingCounterIsNoIncident();
    void aCounterResetByARestartGivesValuesOutAgain();
    void theSameValueAfterARestartWasGivenOutTwice();
    void aLowerValueWithNoRestartIsStillARegression();
    void eachMasterHasItsOwnCounter();
    void aCounterKeepsItsScanFromBeingForgotten();
    void aRedissonCounterNamesItsLock();
};

void TestFenceWatch::aRisingCounterIsNoIncident()
{
    Story s;
    s.read(1000, 0, 1)
        .read(2000, 0, 2)
        .read(3000, 0, 7)
        .master(3500, Kind::MasterRestarted, 1)
        .read(4000, 0, 8);
    // A restart with persistence: the counter comes back where it was (the monitor reads it again,
    // 8) and goes on. Found by tst_incidentsoak's fenced peers, a proven false alarm before.
    s.master(5000, Kind::MasterRestarted, 0).read(5050, 0, 8).read(5100, 0, 9);
    QVERIFY(s.detect().isEmpty());
    // So too with the lock granted before the restart, and its grant read after the counter it
    // raised (the lock is read after its counter): the grant that made it 8.
    Story granted;
    granted.read(3000, 0, 7).read(4000, 0, 8).lock(4005, Kind::Acquired, "tok-a", 0b1, 30000);
    granted.master(5000, Kind::MasterRestarted, 0).read(5050, 0, 8).read(5100, 0, 9);
    QVERIFY(granted.detect().isEmpty());
}

void TestFenceWatch::aCounterResetByARestartGivesValuesOutAgain()
{
    Story s;
    s.read(1000, 0, 3).read(2000, 0, 5).master(3000, Kind::MasterRestarted, 0);
    s.read(3100, 0, 1).read(3200, 0, 2).read(3300, 0, 5).read(3400, 0, 6).read(3500, 0, 7);
    const QList<Incident> found = s.detect();
    QCOMPARE(found.size(), 1);
    const Incident& i = found.first();
    // From the first value given out again to the first new one (6: past the old highest).
    test::verifyIncident(
        i, {Incident::Kind::FencingRegression, Incident::Confidence::Proven, "5", "1", 3100, 3400});
    QCOMPARE(i.resource, QByteArray("r"));
    QVERIFY2(i.cause.contains(QLatin1String("read 1 on M1 after 5 there")) &&
                 i.cause.contains(QLatin1String("master-restarted M1")),
             qPrintable(i.cause));
    QCOMPARE(i.evidence.size(), 4); // 1, 2, 5 given out again, then 6
    QVERIFY(i.evidence.first().contains(QLatin1String("fence-counter 1 on M1 (redisson_lock_token:{r})")));
    QCOMPARE(safetyIncidentHolders(i), QStringLiteral("fencing counter 5, then 1"));
}

void TestFenceWatch::theSameValueAfterARestartWasGivenOutTwice()
{
    // A snapshot two increments old: 7, failover, back at 5, two grants: 7 again.
    Story s;
    s.read(1000, 1, 7).master(2000, Kind::Failover, 1).lock(2050, Kind::Acquired, "tok-b", 0b10, 30000);
    s.read(2100, 1, 7);
    const QList<Incident> found = s.detect();
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.first().firstToken, QByteArray("7"));
    QCOMPARE(found.first().secondToken, QByteArray("7"));
    QVERIFY(found.first().cause.contains(QLatin1String("failover M2")));
    // With no grant since 7 was read, 7 read again after the failover is the counter kept there.
    Story kept;
    kept.read(1000, 1, 7).master(2000, Kind::Failover, 1).read(2100, 1, 7);
    QVERIFY(kept.detect().isEmpty());
    // Without the master changing, the same value is the same reading (the monitor tells a
    // change once; a value it read again after forgetting its counters is no news).
    Story same;
    same.read(1000, 1, 7).read(2100, 1, 7);
    QVERIFY(same.detect().isEmpty());
}

void TestFenceWatch::aLowerValueWithNoRestartIsStillARegression()
{
    Story s;
    s.read(1000, 0, 40).read(2000, 0, 12);
    const QList<Incident> found = s.detect();
    QCOMPARE(found.size(), 1);
    QVERIFY2(found.first().cause.contains(QLatin1String("no restart or failover recorded")),
             qPrintable(found.first().cause));
}

void TestFenceWatch::eachMasterHasItsOwnCounter()
{
    // Redlock-style: a counter per master, each at its own value. None went down.
    Story s;
    s.read(1000, 0, 10).read(1001, 1, 3).read(1002, 2, 7).read(2000, 1, 4).read(2001, 0, 11);
    QVERIFY(s.detect().isEmpty());
}

void TestFenceWatch::aCounterKeepsItsScanFromBeingForgotten()
{
    // A pass over a whole recording forgets idle scans: one that read a counter keeps its highest,
    // or a reset long after the last grant would pass unseen. With the lock's own tenures beside.
    QList<SafetyIncident> out;
    const QList<RecordEvent> masterEvents;
    DoubleGrantScan scan("r", 3, 0, masterEvents, out);
    scan.add(test::lockEvent(1000, Kind::Acquired, "r", "A", 0b111, 5000));
    scan.add(test::lockEvent(1500, Kind::Released, "r", "A"));
    QVERIFY(scan.idle(2000));
    RecordEvent read = fenceCounterEvent(0, "r", "redisson_lock_token:{r}", 9);
    read.timeMs = 1200;
    scan.add(read);
    QVERIFY(!scan.idle(100000));
    read.token = "2";
    read.timeMs = 90000;
    scan.add(read);
    QCOMPARE(out.size(), 1);
    QCOMPARE(out.first().kind, Incident::Kind::FencingRegression);
}

void TestFenceWatch::aRedissonCounterNamesItsLock()
{
    // Redisson tags the name ({name}) unless it holds a tag already (RedissonObject.prefixName).
    QCOMPARE(recognition::fencedLockOf("redisson_lock_token:{orders}"), QByteArray("orders"));
    QCOMPARE(recognition::fencedLockOf("redisson_lock_token:{tenant}:orders"), QByteArray("{tenant}:orders"));
    QCOMPARE(recognition::fencedLockOf("redisson_lock_token:{a}{b}"), QByteArray("{a}{b}"));
    QVERIFY(!recognition::fencedLockOf("redisson_lock_token:"));
    QVERIFY(!recognition::fencedLockOf("redisson_lock_queue:{orders}"));
    QVERIFY(!recognition::fencedLockOf("fence:orders"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestFenceWatch)

} // namespace tst_fencewatch

#include "tst_fencewatch.moc"
