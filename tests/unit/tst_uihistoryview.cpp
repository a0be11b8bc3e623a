// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "history/historydock.h"
#include "history/historytimeline.h"
#include "history/historyview.h"
#include "record/livehistory.h"
#include "support/heldview.h"
#include "support/recordedsession.h"
#include "support/testregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uihistoryview {

using namespace lockscope;

namespace {

LockView held(const QByteArray& resource, const QByteArray& token, const QString& owner = {})
{
    LockView v = test::heldNow(resource, token, owner);
    v.holders = {0};
    return v;
}

RecordEvent recorded(RecordEvent::Kind kind, qint64 timeMs, const QByteArray& token,
                     const QString& owner = {})
{
    RecordEvent e;
    e.kind = kind;
    e.timeMs = timeMs;
    e.resource = "orders";
    e.token = token;
    e.owner = owner;
    e.holding = kind == RecordEvent::Kind::Acquired ? 1 : 0;
    e.holders = kind == RecordEvent::Kind::Acquired ? 1 : 0;
    return e;
}

QStringList tokens(const QList<Episode>& episodes)
{
    QStringList out;
    for (const Episode& e : episodes)
        out << QString::fromUtf8(e.token) + QLatin1Char(':') + episodeEndName(e.ended);
    return out;
}

QJsonObject json(const HistoryView& view)
{
    return QJsonDocument::fromJson(view.exported(true)).object();
}

} // namespace

// What the History dock shows and exports (HistoryView): the recording's episodes and those this
// window saw itself are one kind of episode, the recorder's, shown together, and the export is a
// history as `lockctl history --json` prints it.
class TestUiHistoryView : public QObject
{
    Q_OBJECT

private slots:
    void withoutARecordingTheWindowsOwnEpisodes();
    void recordedAndLiveEpisodesTogether();
};

void TestUiHistoryView::withoutARecordingTheWindowsOwnEpisodes()
{
    LiveHistory live;
    HistoryDock dock;
    HistoryView view(&live, &dock);
    connect(&live, &LiveHistory::changed, &view, &HistoryView::liveChanged);
    live.observe(LockBatch{{SharedLockView(held("orders", "t1", QStringLiteral("a, b")))}, {}, {}});
    live.observe(LockBatch{{}, {SharedLockView(held("orders", "t2", QStringLiteral("c")))}, {}});
    view.show("orders");
    HistoryTimeline* timeline = dock.timeline();
    QCOMPARE(timeline->resource(), QByteArray("orders"));
    QCOMPARE(tokens(timeline->episodes()),
             (QStringList{QStringLiteral("t1:replaced"), QStringLiteral("t2:open")}));
    // Its changes are shown at once.
    live.observe(LockBatch{{}, {}, {"orders"}});
    QCOMPARE(tokens(timeline->episodes()),
             (QStringList{QStringLiteral("t1:replaced"), QStringLiteral("t2:released")}));

    const QJsonObject exported = json(view);
    QCOMPARE(exported.value(QStringLiteral("resource")).toString(), QStringLiteral("orders"));
    const QJsonArray episodes = exported.value(QStringLiteral("episodes")).toArray();
    QCOMPARE(episodes.size(), 2);
    QCOMPARE(episodes.at(0).toObject().value(QStringLiteral("owner")).toString(), QStringLiteral("a, b"));
    QCOMPARE(episodes.at(1).toObject().value(QStringLiteral("ended")).toString(), QStringLiteral("released"));
    QVERIFY(episodes.at(1).toObject().value(QStringLiteral("end")).isString());
    QCOMPARE(exported.value(QStringLiteral("events")).toArray().size(), 0); // nothing recorded
    QVERIFY(exported.value(QStringLiteral("diagnosis")).isArray());
    const QStringList csv = QString::fromUtf8(view.exported(false)).split(QLatin1Char('\n'));
    QCOMPARE(csv.size(), 4);
    QCOMPARE(csv.at(0), QStringLiteral("resource,token,owner,from,to,end"));
    QVERIFY2(csv.at(1).startsWith(QStringLiteral("orders,t1,\"a, b\",")), qPrintable(csv.at(1)));
    QVERIFY2(csv.at(2).endsWith(QStringLiteral(",released")), qPrintable(csv.at(2)));
}

void TestUiHistoryView::recordedAndLiveEpisodesTogether()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("recording.sqlite"));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QString error;
    QVERIFY2(test::recordSession(
                 db, {QStringLiteral("redis://m0")},
                 {recorded(RecordEvent::Kind::Acquired, now - 5000, "t1", QStringLiteral("before")),
                  recorded(RecordEvent::Kind::Released, now - 4000, "t1")},
                 &error),
             qPrintable(error));
    LiveHistory live;
    HistoryDock dock;
    HistoryView view(&live, &dock);
    view.setRecording(db);
    live.observe(LockBatch{{SharedLockView(held("orders", "t2"))}, {}, {}});
    QSignalSpy loaded(&view, &HistoryView::loaded);
    view.show("orders");
    QVERIFY(loaded.wait());
    // Before this window: the recording's; since: this window's, not recorded yet.
    QCOMPARE(tokens(dock.timeline()->episodes()),
             (QStringList{QStringLiteral("t1:released"), QStringLiteral("t2:open")}));
    QCOMPARE(dock.timeline()->episodes().first().masters, QStringList{QStringLiteral("redis://m0")});

    const QJsonObject exported = json(view);
    const QJsonArray episodes = exported.value(QStringLiteral("episodes")).toArray();
    QCOMPARE(episodes.size(), 2);
    QCOMPARE(episodes.at(0).toObject().value(QStringLiteral("owner")).toString(), QStringLiteral("before"));
    QCOMPARE(episodes.at(0).toObject().value(QStringLiteral("masters")).toArray().size(), 1);
    QCOMPARE(episodes.at(1).toObject().value(QStringLiteral("token")).toString(), QStringLiteral("t2"));
    QVERIFY(episodes.at(1).toObject().value(QStringLiteral("end")).isNull());
    // The recording's events come with it.
    QStringList events;
    for (const QJsonValue& e : exported.value(QStringLiteral("events")).toArray())
        events << e.toObject().value(QStringLiteral("event")).toString();
    QCOMPARE(events, (QStringList{QStringLiteral("acquired"), QStringLiteral("released")}));
    QVERIFY(exported.value(QStringLiteral("diagnosis")).isArray());
}

LOCKSCOPE_TEST_MAIN(TestUiHistoryView)

} // namespace tst_uihistoryview

#include "tst_uihistoryview.moc"
