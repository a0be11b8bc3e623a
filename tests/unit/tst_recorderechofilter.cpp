// SPDX-License-Identifier: Apache-2.0
#include "record/recorderechofilter.h"
#include "record/sessiongroups.h"
#include "support/recordevents.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_recorderechofilter {

using namespace lockscope;
using Kind = RecordEvent::Kind;

namespace {

RecordingSession session(qint64 id, qint64 started, qint64 last, QStringList masters = {QStringLiteral("m0")})
{
    RecordingSession s;
    s.id = id;
    s.startedMs = started;
    s.lastMs = last;
    s.masters = std::move(masters);
    return s;
}

HistoryEvent recorded(qint64 session, qint64 t, Kind kind, const QByteArray& token, int master = -1)
{
    RecordEvent e = test::lockEvent(t, kind, "lock:a", token);
    e.master = master;
    return test::inSession(session, e);
}

} // namespace

// How the events of recorders that watched the same masters at once are read as one watch (issue
// #45), on hand-made sessions: which sessions form a group, and which events are the second
// telling of one change.
class TestRecorderEchoFilter : public QObject
{
    Q_OBJECT

private slots:
    void overlappingSessionsOfTheSameMastersAreOneWatch();
    void eachEventEchoesAtMostOneOther();
    void threeRecordersTellEachChangeOnce();
    void whatOnlyOneRecorderSawIsKept();
    void aLateRecordersSeenAndMasterUpAddNothing();
};

void TestRecorderEchoFilter::overlappingSessionsOfTheSameMastersAreOneWatch()
{
    const SessionGroups groups({session(1, 0, 100), session(2, 50, 200), session(3, 150, 300),
                                session(4, 400, 500), session(5, 60, 90, {QStringLiteral("other")}),
                                session(6, 120, 130, {QStringLiteral("m0"), QStringLiteral("m1")})});
    QVERIFY(groups.any());
    // 1, 2 and 3 chain; 4 came after them all (a restart: its own); 5 and 6 watched other masters.
    QCOMPARE(groups.groupOf(1), 1);
    QCOMPARE(groups.groupOf(2), 1);
    QCOMPARE(groups.groupOf(3), 1);
    QCOMPARE(groups.groupOf(4), 4);
    QCOMPARE(groups.groupOf(5), 5);
    QCOMPARE(groups.groupOf(6), 6);
    QCOMPARE(groups.merged().size(), 4);
    QCOMPARE(groups.merged().first().startedMs, 0);
    QCOMPARE(groups.merged().first().lastMs, 300);
    // One recorder at a time: nothing merged, nothing to filter.
    QVERIFY(!SessionGroups({session(1, 0, 100), session(2, 200, 300)}).any());
}

void TestRecorderEchoFilter::eachEventEchoesAtMostOneOther()
{
    const SessionGroups groups({session(1, 0, 100000), session(2, 0, 100000)});
    RecorderEchoFilter filter(&groups);
    // Two extensions 600 ms apart, each seen by both recorders a millisecond apart: two stay.
    QVERIFY(!filter.isEcho(recorded(1, 1000, Kind::Extended, "t", 0)));
    QVERIFY(filter.isEcho(recorded(2, 1001, Kind::Extended, "t", 0)));
    QVERIFY(!filter.isEcho(recorded(1, 1600, Kind::Extended, "t", 0)));
    QVERIFY(filter.isEcho(recorded(2, 1601, Kind::Extended, "t", 0)));
    // Whichever recorder told it first is kept.
    QVERIFY(!filter.isEcho(recorded(2, 3000, Kind::Released, "t")));
    QVERIFY(filter.isEcho(recorded(1, 3002, Kind::Released, "t")));
    // The same recorder twice is two events, not an echo.
    QVERIFY(!filter.isEcho(recorded(1, 5000, Kind::Acquired, "u")));
    QVERIFY(!filter.isEcho(recorded(1, 5001, Kind::Acquired, "u")));
}

void TestRecorderEchoFilter::threeRecordersTellEachChangeOnce()
{
    // Two `lockctl record` and a `serve --record` on the same masters (tst_pgrecorders found the
    // third telling of each extension kept when an event could be echoed only once).
    const SessionGroups groups({session(1, 0, 100000), session(2, 0, 100000), session(3, 0, 100000)});
    RecorderEchoFilter filter(&groups);
    int kept = 0;
    for (const qint64 t : {1000, 1600}) // two extensions, each told by all three
        for (const qint64 s : {1, 2, 3})
            kept += filter.isEcho(recorded(s, t + s, Kind::Extended, "t", 0)) ? 0 : 1;
    QCOMPARE(kept, 2);
    // In another order: one recorder's batch with both before the others' (ids follow commits).
    RecorderEchoFilter again(&groups);
    kept = 0;
    for (const qint64 s : {2, 1, 3})
        for (const qint64 t : {3000, 3600})
            kept += again.isEcho(recorded(s, t + s, Kind::Extended, "t", 0)) ? 0 : 1;
    QCOMPARE(kept, 2);
}

void TestRecorderEchoFilter::whatOnlyOneRecorderSawIsKept()
{
    const SessionGroups groups(
        {session(1, 0, 100000), session(2, 0, 100000), session(3, 0, 100000, {QStringLiteral("x")})});
    RecorderEchoFilter filter(&groups);
    QVERIFY(!filter.isEcho(recorded(1, 1000, Kind::Holders, "t", 0)));
    // Another master, another token, or beyond the window: not the same change.
    QVERIFY(!filter.isEcho(recorded(2, 1001, Kind::Holders, "t", 1)));
    QVERIFY(!filter.isEcho(recorded(2, 1001, Kind::Holders, "other", 0)));
    QVERIFY(!filter.isEcho(recorded(2, 1000 + RecorderEchoFilter::echoWindowMs + 1, Kind::Holders, "t", 0)));
    // A recorder of other masters is another watch.
    QVERIFY(!filter.isEcho(recorded(3, 1000, Kind::Acquired, "t")));
}

void TestRecorderEchoFilter::aLateRecordersSeenAndMasterUpAddNothing()
{
    const SessionGroups groups({session(1, 0, 100000), session(2, 5000, 100000)});
    RecorderEchoFilter filter(&groups);
    QVERIFY(!filter.isEcho(recorded(1, 1000, Kind::Acquired, "t")));
    // The second recorder starts: its connection comes up and it sees the lock held.
    HistoryEvent up = recorded(2, 5000, Kind::MasterUp, QByteArray(), 0);
    up.event.resource.clear();
    QVERIFY(filter.isEcho(up));
    QVERIFY(filter.isEcho(recorded(2, 5001, Kind::Seen, "t")));
    // A holder it saw that the watch had not: kept.
    QVERIFY(!filter.isEcho(recorded(2, 9000, Kind::Seen, "v")));
    // The first recorder's master goes down while the second's stays up: not news of the master...
    HistoryEvent down = recorded(1, 20000, Kind::MasterDown, QByteArray(), 0);
    down.event.resource.clear();
    QVERIFY(filter.isEcho(down));
    // ...but the last one watching losing it is.
    HistoryEvent lastDown = recorded(2, 30000, Kind::MasterDown, QByteArray(), 0);
    lastDown.event.resource.clear();
    QVERIFY(!filter.isEcho(lastDown));
}

LOCKSCOPE_TEST_MAIN(TestRecorderEchoFilter)

} // namespace tst_recorderechofilter

#include "tst_recorderechofilter.moc"
