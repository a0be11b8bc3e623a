// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "diagnosis/historyreport.h"
#include "record/historycsv.h"
#include "record/livehistory.h"
#include "support/heldview.h"
#include "support/testregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

namespace tst_livehistory {

using namespace lockscope;

namespace {

constexpr qint64 t0 = 1'790'000'000'000;

// Wall clock, ms since the epoch.
qint64 at(int seconds)
{
    return t0 + seconds * qint64(1000);
}

QString iso(int seconds)
{
    return QDateTime::fromMSecsSinceEpoch(at(seconds), Qt::UTC).toString(Qt::ISODateWithMs);
}

// A view of `resource` held by `token`, with `validityMs` left as computed now.
LockView held(const QByteArray& resource, const QByteArray& token, const QString& owner = {},
              qint64 validityMs = 60'000)
{
    return test::heldNow(resource, token, owner, validityMs);
}

// `v` held by the masters `holders`, all of them at once.
LockView heldOn(LockView v, const QList<int>& holders)
{
    v.holders = holders;
    v.holding = int(holders.size());
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

// The holders of each lock since the window opened, as the History view and its export show them
// where no recording has them: the recorder's episodes, built live from the monitor's batches.
class TestLiveHistory : public QObject
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
    void forgetsTheLocksThatWentLongestAgo();
    void aLockThatComesAndGoesStaysBounded();
    void mastersThatHeldIt();
    void exportsEveryEpisode();
};

void TestLiveHistory::unknownResourceHasNoHistory()
{
    LiveHistory history;
    QVERIFY(history.episodes("nothing").isEmpty());
    history.observe(removed("nothing"), at(0));
    QVERIFY(history.episodes("nothing").isEmpty());
}

void TestLiveHistory::oneHolderIsOneOngoingEpisode()
{
    LiveHistory history;
    QSignalSpy changes(&history, &LiveHistory::changed);
    history.observe(added(held("orders", "t1")), at(0));
    // Seen again (a new TTL), its owner decoded only now: the same episode, which learns the owner.
    history.observe(changed(held("orders", "t1", QStringLiteral("worker-7"))), at(5));
    history.observe(changed(held("orders", "t1", QStringLiteral("worker-8"))), at(6));
    const QList<Episode> e = history.episodes("orders");
    QCOMPARE(e.size(), 1);
    QCOMPARE(e.at(0).token, QByteArray("t1"));
    QCOMPARE(e.at(0).owner, QStringLiteral("worker-7"));
    QCOMPARE(e.at(0).startMs, at(0));
    QCOMPARE(e.at(0).endMs, -1);
    QCOMPARE(e.at(0).ended, Episode::End::Open);
    QCOMPARE(changes.size(), 3);
    QCOMPARE(changes.at(0).at(0).toByteArray(), QByteArray("orders"));
}

void TestLiveHistory::newTokenEndsTheEpisodeBefore()
{
    LiveHistory history;
    history.observe(added(held("orders", "t1", QStringLiteral("a"))), at(0));
    // Still valid for a minute when another token shows: replaced.
    history.observe(changed(held("orders", "t2", QStringLiteral("b"), 1000)), at(10));
    // Its validity all but gone when the next one shows: it expired.
    history.observe(changed(held("orders", "t3", QStringLiteral("c"))), at(20));
    // Force-released by this window, then taken by another.
    history.markForceReleased("orders");
    history.observe(changed(held("orders", "t4")), at(30));
    // The mark was for that one end only.
    history.observe(changed(held("orders", "t5")), at(40));
    const QList<Episode> e = history.episodes("orders");
    QCOMPARE(e.size(), 5);
    const QList<Episode::End> ends{Episode::End::Replaced, Episode::End::Expired, Episode::End::ForceReleased,
                                   Episode::End::Replaced, Episode::End::Open};
    for (int i = 0; i < e.size(); ++i) {
        QCOMPARE(e.at(i).token, QByteArray("t") + QByteArray::number(i + 1));
        QCOMPARE(e.at(i).startMs, at(10 * i));
        QCOMPARE(e.at(i).ended, ends.at(i));
        QCOMPARE(e.at(i).endMs, i + 1 < e.size() ? at(10 * (i + 1)) : -1);
    }
    QCOMPARE(e.at(1).owner, QStringLiteral("b"));
}

void TestLiveHistory::goneEndsTheEpisodeByHowItWent()
{
    LiveHistory history;
    history.observe(added(held("released", "t1")), at(0));
    history.observe(added(held("expired", "t1", {}, 500)), at(0));
    history.observe(added(held("forced", "t1")), at(0));
    LockView risky = held("lost", "t1");
    history.observe(added(risky), at(0));
    risky.atRisk = true;
    risky.setAtRiskReason(QStringLiteral("M1 restarted"));
    history.observe(changed(risky), at(1));
    history.markForceReleased("forced");
    for (const QByteArray r : {"released", "expired", "forced", "lost"})
        history.observe(removed(r), at(2));
    const auto endOf = [&](const QByteArray& r) {
        const QList<Episode> e = history.episodes(r);
        return e.size() == 1 && e.at(0).endMs == at(2) ? e.at(0).ended : Episode::End::Open;
    };
    QCOMPARE(endOf("released"), Episode::End::Released);
    QCOMPARE(endOf("expired"), Episode::End::Expired);
    QCOMPARE(endOf("forced"), Episode::End::ForceReleased);
    QCOMPARE(endOf("lost"), Episode::End::Lost);
    // Gone twice (a removal that arrives again) ends nothing more.
    history.observe(removed("released"), at(3));
    QCOMPARE(history.episodes("released").at(0).endMs, at(2));
}

void TestLiveHistory::backAfterGoingIsANewEpisode()
{
    LiveHistory history;
    history.observe(added(held("orders", "t1")), at(0));
    history.observe(removed("orders"), at(1));
    // The same token again (a holder that released and took it again): a new episode all the same.
    history.observe(added(held("orders", "t1", QStringLiteral("again"))), at(2));
    const QList<Episode> e = history.episodes("orders");
    QCOMPARE(e.size(), 2);
    QCOMPARE(e.at(0).ended, Episode::End::Released);
    QCOMPARE(e.at(0).endMs, at(1));
    QCOMPARE(e.at(1).ended, Episode::End::Open);
    QCOMPARE(e.at(1).startMs, at(2));
    QCOMPARE(e.at(1).owner, QStringLiteral("again"));
}

void TestLiveHistory::keepsTheLatestEpisodes()
{
    LiveHistory history;
    const int n = LiveHistory::maxEpisodesPerResource + 50;
    for (int i = 0; i < n; ++i)
        history.observe(changed(held("busy", "t" + QByteArray::number(i))), at(i));
    QList<Episode> e = history.episodes("busy");
    QCOMPARE(e.size(), LiveHistory::maxEpisodesPerResource);
    QCOMPARE(e.first().token, QByteArray("t50"));
    QCOMPARE(e.last().token, "t" + QByteArray::number(n - 1));
    QCOMPARE(e.last().ended, Episode::End::Open);
    // Gone: the last one ends, none is dropped for it.
    history.observe(removed("busy"), at(n));
    e = history.episodes("busy");
    QCOMPARE(e.size(), LiveHistory::maxEpisodesPerResource);
    QCOMPARE(e.first().token, QByteArray("t50"));
    QCOMPARE(e.last().ended, Episode::End::Released);
    // Back: the oldest makes room.
    history.observe(added(held("busy", "back")), at(n + 1));
    e = history.episodes("busy");
    QCOMPARE(e.size(), LiveHistory::maxEpisodesPerResource);
    QCOMPARE(e.first().token, QByteArray("t51"));
    QCOMPARE(e.last().token, QByteArray("back"));
}

void TestLiveHistory::forgetsTheLocksThatWentLongestAgo()
{
    // Locks named after what they guard come and go for good: only the last to go are kept.
    LiveHistory history;
    const qsizetype extra = 10;
    const qsizetype n = LiveHistory::maxGoneResources + extra;
    const auto name = [](qsizetype i) -> QByteArray { return "order:" + QByteArray::number(i); };
    LockBatch taken;
    for (qsizetype i = 0; i < n; ++i)
        taken.added << SharedLockView(held(name(i), "t"));
    taken.added << SharedLockView(held("stays", "t"));
    history.observe(taken, at(0));
    QCOMPARE(history.size(), n + 1);
    // The first to go comes back before the others go: held again, it is not among the gone.
    history.observe(removed(name(0)), at(1));
    history.observe(added(held(name(0), "again")), at(2));
    LockBatch gone;
    for (qsizetype i = 1; i < n; ++i)
        gone.removed << name(i);
    history.observe(gone, at(3));
    // Every one that went is kept up to the bound; the first extra-1 to go were forgotten.
    QCOMPARE(history.size(), LiveHistory::maxGoneResources + 2);
    for (qsizetype i = 1; i < extra; ++i)
        QVERIFY2(history.episodes(name(i)).isEmpty(), name(i).constData());
    const QList<Episode> kept = history.episodes(name(extra));
    QCOMPARE(kept.size(), 1);
    QCOMPARE(kept.first().ended, Episode::End::Released);
    QCOMPARE(history.episodes(name(n - 1)).size(), 1);
    QCOMPARE(history.episodes("stays").size(), 1);
    const QList<Episode> back = history.episodes(name(0));
    QCOMPARE(back.size(), 2);
    QCOMPARE(back.last().token, QByteArray("again"));
    QCOMPARE(back.last().ended, Episode::End::Open);
    // One more gone: the oldest gone one makes room.
    history.observe(removed("stays"), at(4));
    QVERIFY(history.episodes(name(extra)).isEmpty());
    QCOMPARE(history.episodes("stays").size(), 1);
    QCOMPARE(history.size(), LiveHistory::maxGoneResources + 1);
}

void TestLiveHistory::aLockThatComesAndGoesStaysBounded()
{
    // Each going queues its lock again; the places it left behind do not pile up.
    LiveHistory history;
    for (int i = 0; i < 20'000; ++i) {
        history.observe(added(held("busy", "t" + QByteArray::number(i))), at(i));
        history.observe(removed("busy"), at(i));
    }
    QCOMPARE(history.size(), 1);
    QVERIFY2(history.goneQueued() <= 2 + 1024, QByteArray::number(history.goneQueued()).constData());
    QCOMPARE(history.episodes("busy").size(), LiveHistory::maxEpisodesPerResource);
    QCOMPARE(history.episodes("busy").last().ended, Episode::End::Released);
}

void TestLiveHistory::whileRecordedOnlyTheFollowedLockIsKept()
{
    LiveHistory history;
    history.observe(added(held("a", "t1")), at(0));
    history.observe(added(held("b", "t1")), at(0));
    history.follow("a");
    // The recording has every lock's history from here on: this window keeps the followed one's.
    history.setRecorded(true);
    QCOMPARE(history.episodes("a").size(), 1);
    QVERIFY(history.episodes("b").isEmpty());
    QSignalSpy changedSpy(&history, &LiveHistory::changed);
    history.observe(LockBatch{{SharedLockView(held("c", "t1"))},
                              {SharedLockView(held("a", "t2")), SharedLockView(held("b", "t2"))},
                              {}},
                    at(5));
    QCOMPARE(changedSpy.size(), 1);
    QCOMPARE(changedSpy.first().first().toByteArray(), QByteArray("a"));
    QCOMPARE(history.episodes("a").size(), 2);
    QVERIFY(history.episodes("b").isEmpty());
    QVERIFY(history.episodes("c").isEmpty());
    history.reserve(1'000'000); // nothing to make room for
    // Another lock shown: the last one's history is the recording's alone now.
    history.follow("b");
    QVERIFY(history.episodes("a").isEmpty());
    history.observe(changed(held("b", "t3")), at(9));
    QCOMPARE(history.episodes("b").size(), 1);
    QCOMPARE(history.episodes("b").first().startMs, at(9));
}

void TestLiveHistory::notRecordedAnyMoreEveryLockIsKeptAgain()
{
    LiveHistory history;
    history.setRecorded(true);
    history.observe(added(held("a", "t1")), at(0));
    QVERIFY(history.episodes("a").isEmpty());
    history.setRecorded(false);
    history.observe(added(held("a", "t2")), at(1));
    history.observe(added(held("b", "t1")), at(1));
    QCOMPARE(history.episodes("a").size(), 1);
    QCOMPARE(history.episodes("b").size(), 1);
}

void TestLiveHistory::mastersThatHeldIt()
{
    // As the recording's episodes say it: the masters that held it, by name, and the most at once.
    LiveHistory history;
    history.setMasters({QStringLiteral("m0"), QStringLiteral("m1"), QStringLiteral("m2")});
    const LockView v = held("orders", "t1");
    history.observe(added(heldOn(v, {2})), at(0));
    history.observe(changed(heldOn(v, {0, 1, 2})), at(1));
    history.observe(changed(heldOn(v, {0})), at(2));
    const QList<Episode> e = history.episodes("orders");
    QCOMPARE(e.size(), 1);
    QCOMPARE(e.at(0).maxHolding, 3);
    QCOMPARE(e.at(0).masters,
             (QStringList{QStringLiteral("m2"), QStringLiteral("m0"), QStringLiteral("m1")}));
    // First seen on all three: the masters' own list, not a copy per lock (a million locks' worth).
    const QStringList masters{QStringLiteral("m0"), QStringLiteral("m1"), QStringLiteral("m2")};
    history.setMasters(masters);
    const LockView all = held("everywhere", "t1");
    history.observe(added(heldOn(all, {0, 1, 2})), at(3));
    history.observe(changed(heldOn(all, {1})), at(4));
    const QList<Episode> everywhere = history.episodes("everywhere");
    QCOMPARE(everywhere.size(), 1);
    QCOMPARE(everywhere.at(0).masters, masters);
    QCOMPARE(everywhere.at(0).masters.constData(), masters.constData());
}

void TestLiveHistory::exportsEveryEpisode()
{
    LiveHistory history;
    history.observe(added(held("orders", "t1", QStringLiteral("a, b"))), at(0));
    history.observe(changed(held("orders", "t2", QStringLiteral("c"))), at(10));
    const QStringList csv =
        QString::fromUtf8(historyCsv("orders", history.episodes("orders"))).split(QLatin1Char('\n'));
    QCOMPARE(csv.size(), 4); // header, two episodes, the last line's end
    QCOMPARE(csv.at(0), QStringLiteral("resource,token,owner,from,to,end"));
    QVERIFY2(
        csv.at(1).startsWith(QStringLiteral("orders,t1,\"a, b\",") + iso(0) + QLatin1Char(',') + iso(10)),
        qPrintable(csv.at(1)));
    QVERIFY2(csv.at(2).startsWith(QStringLiteral("orders,t2,c,") + iso(10) + QStringLiteral(",,")),
             qPrintable(csv.at(2)));
    // The JSON is `lockctl history --json`'s.
    ResourceHistory shown;
    shown.resource = "orders";
    shown.episodes = history.episodes("orders");
    const QJsonObject json =
        QJsonDocument::fromJson(QJsonDocument(historyReportJson(shown, {})).toJson()).object();
    QCOMPARE(json.value(QStringLiteral("resource")).toString(), QStringLiteral("orders"));
    const QJsonArray episodes = json.value(QStringLiteral("episodes")).toArray();
    QCOMPARE(episodes.size(), 2);
    QCOMPARE(episodes.at(0).toObject().value(QStringLiteral("token")).toString(), QStringLiteral("t1"));
    QCOMPARE(episodes.at(0).toObject().value(QStringLiteral("end")).toString(), iso(10));
    QCOMPARE(episodes.at(0).toObject().value(QStringLiteral("ended")).toString(), QStringLiteral("replaced"));
    QCOMPARE(episodes.at(1).toObject().value(QStringLiteral("owner")).toString(), QStringLiteral("c"));
    QVERIFY(episodes.at(1).toObject().value(QStringLiteral("end")).isNull());
    QCOMPARE(episodes.at(1).toObject().value(QStringLiteral("ended")).toString(), QStringLiteral("open"));
    QVERIFY(json.value(QStringLiteral("events")).isArray());
    QVERIFY(json.value(QStringLiteral("diagnosis")).isArray());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLiveHistory)

} // namespace tst_livehistory

#include "tst_livehistory.moc"
