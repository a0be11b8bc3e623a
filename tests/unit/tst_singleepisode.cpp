// SPDX-License-Identifier: Apache-2.0
#include "record/singleepisode.h"
#include "support/recordevents.h"
#include "support/testregistry.h"

#include <QRandomGenerator>
#include <QTest>

namespace tst_singleepisode {

using namespace lockscope;

namespace {

using Kind = RecordEvent::Kind;

const RecordingSession session{1,
                               0,
                               0,
                               -1,
                               {QStringLiteral("m0"), QStringLiteral("m1"), QStringLiteral("m2"),
                                QStringLiteral("m3"), QStringLiteral("m4")},
                               {}};

RecordEvent told(qint64 ms, Kind kind, const QByteArray& token, quint64 holders, const QString& owner = {})
{
    RecordEvent e = test::lockEvent(ms, kind, "orders", token, holders);
    e.owner = owner;
    return e;
}

// What EpisodeBuilder makes of the same events: the episodes a recording would show.
QList<Episode> built(const QList<RecordEvent>& events)
{
    QList<HistoryEvent> history;
    for (const RecordEvent& e : events)
        history << test::inSession(session.id, e);
    return EpisodeBuilder::build(history, {session});
}

} // namespace

// The one-episode history a window keeps per lock with recording off: the same episode as
// EpisodeBuilder's from the same events, and the same history once it hands them over.
class TestSingleEpisode : public QObject
{
    Q_OBJECT

private slots:
    void takesOnlyTheFirstHoldersEpisode();
    void sameEpisodeAsTheBuilder();
    void handedOverTheBuilderGoesOnAsIfItHadAll();
};

void TestSingleEpisode::takesOnlyTheFirstHoldersEpisode()
{
    SingleEpisode single;
    QVERIFY(!single.isSet());
    QVERIFY(!single.takes(told(1, Kind::Holders, "t", 1)));
    QVERIFY(!single.takes(told(1, Kind::Acquired, "t", 1)));
    QVERIFY(single.takes(told(1, Kind::Seen, "t", 1)));
    single.add(told(1, Kind::Seen, "t", 1));
    QVERIFY(single.isSet());
    QVERIFY(!single.takes(told(2, Kind::Seen, "t", 1)));
    QVERIFY(single.takes(told(2, Kind::Holders, "t", 3)));
    QVERIFY(!single.takes(told(2, Kind::Holders, "other", 3)));
    QVERIFY(!single.takes(told(2, Kind::Released, "t", 0)));
    QVERIFY(!single.takes(told(2, Kind::Extended, "t", 1)));
    // More masters than it has room for: the builder's.
    QVERIFY(single.takes(told(2, Kind::Holders, "t", 0xFF)));
    QVERIFY(!single.takes(told(2, Kind::Holders, "t", 0x1FF)));
}

void TestSingleEpisode::sameEpisodeAsTheBuilder()
{
    QRandomGenerator random(47);
    for (int round = 0; round < 500; ++round) {
        QList<RecordEvent> events;
        const auto holders = [&] { return quint64(random.bounded(32)); };
        events << told(1000, Kind::Seen, "t", holders(),
                       random.bounded(2) ? QStringLiteral("first") : QString());
        const int more = random.bounded(6);
        for (int i = 0; i < more; ++i)
            events << told(1001 + i, Kind::Holders, "t", holders(),
                           random.bounded(2) ? QStringLiteral("owner %1").arg(i) : QString());
        SingleEpisode single;
        for (const RecordEvent& e : events) {
            QVERIFY(single.takes(e));
            single.add(e);
        }
        const QList<Episode> expected = built(events);
        QCOMPARE(expected.size(), 1);
        const Episode got = single.episode(session.masters);
        QCOMPARE(got.token, expected[0].token);
        QCOMPARE(got.owner, expected[0].owner);
        QCOMPARE(got.startMs, expected[0].startMs);
        QCOMPARE(got.endMs, expected[0].endMs);
        QCOMPARE(got.startSeen, expected[0].startSeen);
        QCOMPARE(got.ended, expected[0].ended);
        QCOMPARE(got.maxHolding, expected[0].maxHolding);
        QCOMPARE(got.masters, expected[0].masters);
    }
}

void TestSingleEpisode::handedOverTheBuilderGoesOnAsIfItHadAll()
{
    QRandomGenerator random(19);
    for (int round = 0; round < 300; ++round) {
        QList<RecordEvent> events{
            told(1000, Kind::Seen, "t", quint64(random.bounded(32)), QStringLiteral("a"))};
        const int more = random.bounded(4);
        for (int i = 0; i < more; ++i)
            events << told(1001 + i, Kind::Holders, "t", quint64(random.bounded(32)));
        SingleEpisode single;
        for (const RecordEvent& e : events)
            single.add(e);
        EpisodeBuilder builder;
        single.moveInto(builder, "orders", session);
        QVERIFY(!single.isSet());
        // Then what it could not take: the holder's end, another holder.
        const QList<RecordEvent> after{told(2000, Kind::Released, "t", 0),
                                       told(3000, Kind::Acquired, "u", quint64(random.bounded(32)))};
        for (const RecordEvent& e : after)
            builder.add(test::inSession(session.id, e), session);
        const QList<Episode> got = builder.finish(session.id);
        const QList<Episode> expected = built(events + after);
        QCOMPARE(got.size(), expected.size());
        for (qsizetype i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].token, expected[i].token);
            QCOMPARE(got[i].owner, expected[i].owner);
            QCOMPARE(got[i].startMs, expected[i].startMs);
            QCOMPARE(got[i].endMs, expected[i].endMs);
            QCOMPARE(got[i].ended, expected[i].ended);
            QCOMPARE(got[i].maxHolding, expected[i].maxHolding);
            QCOMPARE(got[i].masters, expected[i].masters);
        }
    }
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestSingleEpisode)

} // namespace tst_singleepisode

#include "tst_singleepisode.moc"
