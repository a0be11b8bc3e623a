#include "base/monotonicclock.h"
#include "history/historytracker.h"
#include "support/testregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

namespace tst_uihistorytracker {

using namespace lockscope;

namespace {

const QDateTime t0 = QDateTime::fromMSecsSinceEpoch(1'790'000'000'000, Qt::UTC);

QDateTime at(int seconds)
{
    return t0.addSecs(seconds);
}

// A view of `resource` held by `token`, with `validityMs` left as computed now.
LockView held(const QByteArray& resource, const QByteArray& token, const QString& owner = {},
              qint64 validityMs = 60'000)
{
    LockView v;
    v.resource = resource;
    v.token = token;
    v.owner = owner;
    v.status = LockStatus::Held;
    v.holding = v.needed = v.total = 1;
    v.validityMs = validityMs;
    v.computedAtMs = monotonicMs();
    return v;
}

LockBatch added(const LockView& v)
{
    return LockBatch{{SharedLockView(v)}, {}, {}};
}

LockBatch changed(const LockView& v)
{
    return LockBatch{{}, {SharedLockView(v)}, {}};
}

LockBatch removed(const QByteArray& resource)
{
    return LockBatch{{}, {}, {resource}};
}

} // namespace

// The holders of each lock since the window opened, as the History view and its export show them.
class TestHistoryTracker : public QObject
{
    Q_OBJECT

private slots:
    void unknownResourceHasNoHistory();
    void whileRecordedOnlyTheFollowedLockIsKept();
    void notRecordedAnyMoreEveryLockIsKeptAgain();
    void oneHolderIsOneOngoingEpisode();
    void newTokenEndsTheEpisodeBefore();
    void goneEndsTheEpisodeByHowItWent();
    void backAfterGoingIsANewEpisode();
    void keepsTheLatestEpisodes();
    void exportsEveryEpisode();
};

void TestHistoryTracker::unknownResourceHasNoHistory()
{
    HistoryTracker tracker;
    QVERIFY(tracker.episodes("nothing").isEmpty());
    tracker.observe(removed("nothing"), at(0));
    QVERIFY(tracker.episodes("nothing").isEmpty());
}

void TestHistoryTracker::oneHolderIsOneOngoingEpisode()
{
    HistoryTracker tracker;
    QSignalSpy changes(&tracker, &HistoryTracker::changed);
    tracker.observe(added(held("orders", "t1")), at(0));
    // Seen again (a new TTL), its owner decoded only now: the same episode, which learns the owner.
    tracker.observe(changed(held("orders", "t1", QStringLiteral("worker-7"))), at(5));
    tracker.observe(changed(held("orders", "t1", QStringLiteral("worker-8"))), at(6));
    const QList<HolderEpisode> e = tracker.episodes("orders");
    QCOMPARE(e.size(), 1);
    QCOMPARE(e.at(0).token, QByteArray("t1"));
    QCOMPARE(e.at(0).owner, QStringLiteral("worker-7"));
    QCOMPARE(e.at(0).from, at(0));
    QVERIFY(!e.at(0).to.isValid());
    QCOMPARE(e.at(0).end, HolderEpisode::End::Ongoing);
    QCOMPARE(changes.size(), 3);
    QCOMPARE(changes.at(0).at(0).toByteArray(), QByteArray("orders"));
}

void TestHistoryTracker::newTokenEndsTheEpisodeBefore()
{
    HistoryTracker tracker;
    tracker.observe(added(held("orders", "t1", QStringLiteral("a"))), at(0));
    // Still valid for a minute when another token shows: replaced.
    tracker.observe(changed(held("orders", "t2", QStringLiteral("b"), 1000)), at(10));
    // Its validity all but gone when the next one shows: it expired.
    tracker.observe(changed(held("orders", "t3", QStringLiteral("c"))), at(20));
    // Force-released by this window, then taken by another.
    tracker.markForceReleased("orders");
    tracker.observe(changed(held("orders", "t4")), at(30));
    // The mark was for that one end only.
    tracker.observe(changed(held("orders", "t5")), at(40));
    const QList<HolderEpisode> e = tracker.episodes("orders");
    QCOMPARE(e.size(), 5);
    const QList<HolderEpisode::End> ends{HolderEpisode::End::Replaced, HolderEpisode::End::Expired,
                                         HolderEpisode::End::ForceReleased, HolderEpisode::End::Replaced,
                                         HolderEpisode::End::Ongoing};
    for (int i = 0; i < e.size(); ++i) {
        QCOMPARE(e.at(i).token, QByteArray("t") + QByteArray::number(i + 1));
        QCOMPARE(e.at(i).from, at(10 * i));
        QCOMPARE(e.at(i).end, ends.at(i));
        QCOMPARE(e.at(i).to, i + 1 < e.size() ? at(10 * (i + 1)) : QDateTime());
    }
    QCOMPARE(e.at(1).owner, QStringLiteral("b"));
}

void TestHistoryTracker::goneEndsTheEpisodeByHowItWent()
{
    HistoryTracker tracker;
    tracker.observe(added(held("released", "t1")), at(0));
    tracker.observe(added(held("expired", "t1", {}, 500)), at(0));
    tracker.observe(added(held("forced", "t1")), at(0));
    LockView risky = held("lost", "t1");
    tracker.observe(added(risky), at(0));
    risky.atRisk = true;
    risky.setAtRiskReason(QStringLiteral("M1 restarted"));
    tracker.observe(changed(risky), at(1));
    tracker.markForceReleased("forced");
    for (const QByteArray r : {"released", "expired", "forced", "lost"})
        tracker.observe(removed(r), at(2));
    const auto endOf = [&](const QByteArray& r) {
        const QList<HolderEpisode> e = tracker.episodes(r);
        return e.size() == 1 && e.at(0).to == at(2) ? e.at(0).end : HolderEpisode::End::Ongoing;
    };
    QCOMPARE(endOf("released"), HolderEpisode::End::Released);
    QCOMPARE(endOf("expired"), HolderEpisode::End::Expired);
    QCOMPARE(endOf("forced"), HolderEpisode::End::ForceReleased);
    QCOMPARE(endOf("lost"), HolderEpisode::End::LostOnRestart);
    // Gone twice (a removal that arrives again) ends nothing more.
    tracker.observe(removed("released"), at(3));
    QCOMPARE(tracker.episodes("released").at(0).to, at(2));
}

void TestHistoryTracker::backAfterGoingIsANewEpisode()
{
    HistoryTracker tracker;
    tracker.observe(added(held("orders", "t1")), at(0));
    tracker.observe(removed("orders"), at(1));
    // The same token again (a holder that released and took it again): a new episode all the same.
    tracker.observe(added(held("orders", "t1", QStringLiteral("again"))), at(2));
    const QList<HolderEpisode> e = tracker.episodes("orders");
    QCOMPARE(e.size(), 2);
    QCOMPARE(e.at(0).end, HolderEpisode::End::Released);
    QCOMPARE(e.at(0).to, at(1));
    QCOMPARE(e.at(1).end, HolderEpisode::End::Ongoing);
    QCOMPARE(e.at(1).from, at(2));
    QCOMPARE(e.at(1).owner, QStringLiteral("again"));
}

void TestHistoryTracker::keepsTheLatestEpisodes()
{
    HistoryTracker tracker;
    const int n = HistoryTracker::maxEpisodesPerResource + 50;
    for (int i = 0; i < n; ++i)
        tracker.observe(changed(held("busy", "t" + QByteArray::number(i))), at(i));
    QList<HolderEpisode> e = tracker.episodes("busy");
    QCOMPARE(e.size(), HistoryTracker::maxEpisodesPerResource);
    QCOMPARE(e.first().token, QByteArray("t50"));
    QCOMPARE(e.last().token, "t" + QByteArray::number(n - 1));
    QCOMPARE(e.last().end, HolderEpisode::End::Ongoing);
    // Gone: the last one ends, none is dropped for it.
    tracker.observe(removed("busy"), at(n));
    e = tracker.episodes("busy");
    QCOMPARE(e.size(), HistoryTracker::maxEpisodesPerResource);
    QCOMPARE(e.first().token, QByteArray("t50"));
    QCOMPARE(e.last().end, HolderEpisode::End::Released);
    // Back: the oldest makes room.
    tracker.observe(added(held("busy", "back")), at(n + 1));
    e = tracker.episodes("busy");
    QCOMPARE(e.size(), HistoryTracker::maxEpisodesPerResource);
    QCOMPARE(e.first().token, QByteArray("t51"));
    QCOMPARE(e.last().token, QByteArray("back"));
}

void TestHistoryTracker::whileRecordedOnlyTheFollowedLockIsKept()
{
    HistoryTracker tracker;
    tracker.observe(added(held("a", "t1")), at(0));
    tracker.observe(added(held("b", "t1")), at(0));
    tracker.follow("a");
    // The recording has every lock's history from here on: this window keeps the followed one's.
    tracker.setRecorded(true);
    QCOMPARE(tracker.episodes("a").size(), 1);
    QVERIFY(tracker.episodes("b").isEmpty());
    QSignalSpy changedSpy(&tracker, &HistoryTracker::changed);
    tracker.observe(LockBatch{{SharedLockView(held("c", "t1"))},
                              {SharedLockView(held("a", "t2")), SharedLockView(held("b", "t2"))},
                              {}},
                    at(5));
    QCOMPARE(changedSpy.size(), 1);
    QCOMPARE(changedSpy.first().first().toByteArray(), QByteArray("a"));
    QCOMPARE(tracker.episodes("a").size(), 2);
    QVERIFY(tracker.episodes("b").isEmpty());
    QVERIFY(tracker.episodes("c").isEmpty());
    tracker.reserve(1'000'000); // nothing to make room for
    // Another lock shown: the last one's history is the recording's alone now.
    tracker.follow("b");
    QVERIFY(tracker.episodes("a").isEmpty());
    tracker.observe(changed(held("b", "t3")), at(9));
    QCOMPARE(tracker.episodes("b").size(), 1);
    QCOMPARE(tracker.episodes("b").first().from, at(9));
}

void TestHistoryTracker::notRecordedAnyMoreEveryLockIsKeptAgain()
{
    HistoryTracker tracker;
    tracker.setRecorded(true);
    tracker.observe(added(held("a", "t1")), at(0));
    QVERIFY(tracker.episodes("a").isEmpty());
    tracker.setRecorded(false);
    tracker.observe(added(held("a", "t2")), at(1));
    tracker.observe(added(held("b", "t1")), at(1));
    QCOMPARE(tracker.episodes("a").size(), 1);
    QCOMPARE(tracker.episodes("b").size(), 1);
}

void TestHistoryTracker::exportsEveryEpisode()
{
    HistoryTracker tracker;
    tracker.observe(added(held("orders", "t1", QStringLiteral("a, b"))), at(0));
    tracker.observe(changed(held("orders", "t2", QStringLiteral("c"))), at(10));
    const QStringList csv = QString::fromUtf8(HistoryTracker::toCsv("orders", tracker.episodes("orders")))
                                .split(QLatin1Char('\n'));
    QCOMPARE(csv.size(), 4); // header, two episodes, the last line's end
    QCOMPARE(csv.at(0), QStringLiteral("resource,token,owner,from,to,end"));
    QVERIFY2(csv.at(1).startsWith(QStringLiteral("orders,t1,\"a, b\",") + at(0).toString(Qt::ISODateWithMs) +
                                  QLatin1Char(',') + at(10).toString(Qt::ISODateWithMs)),
             qPrintable(csv.at(1)));
    QVERIFY2(csv.at(2).startsWith(QStringLiteral("orders,t2,c,") + at(10).toString(Qt::ISODateWithMs) +
                                  QStringLiteral(",,")),
             qPrintable(csv.at(2)));
    const QJsonObject json =
        QJsonDocument::fromJson(HistoryTracker::toJson("orders", tracker.episodes("orders"))).object();
    QCOMPARE(json.value(QStringLiteral("resource")).toString(), QStringLiteral("orders"));
    const QJsonArray holders = json.value(QStringLiteral("holders")).toArray();
    QCOMPARE(holders.size(), 2);
    QCOMPARE(holders.at(0).toObject().value(QStringLiteral("token")).toString(), QStringLiteral("t1"));
    QVERIFY(holders.at(0).toObject().contains(QStringLiteral("to")));
    QCOMPARE(holders.at(1).toObject().value(QStringLiteral("owner")).toString(), QStringLiteral("c"));
    QVERIFY(!holders.at(1).toObject().contains(QStringLiteral("to")));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestHistoryTracker)

} // namespace tst_uihistorytracker

#include "tst_uihistorytracker.moc"
