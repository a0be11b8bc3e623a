// SPDX-License-Identifier: Apache-2.0
// Issue #41, point 5: a lock contested its whole life (two tokens held at once on different
// masters) was told as holders alternately "replaced", in the window and in `lockctl history`.
// Recorded by `lockctl record` on five real masters, read back by `lockctl history` and by the
// window's review: two holders at once, overlapping, neither replaced.
#include "history/historydock.h"
#include "history/historytimeline.h"
#include "support/lockctlprocess.h"
#include "support/lockctlrun.h"
#include "support/redisservergroup.h"
#include "support/scaledtry.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "window/mainwindow.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uicontestedhistory {

using namespace lockscope;
using namespace lockscope::test;

namespace {

QJsonObject history(const QString& db, const QString& resource)
{
    const LockctlRun run = runLockctl(
        {QStringLiteral("--json"), QStringLiteral("history"), resource, QStringLiteral("--db"), db});
    return QJsonDocument::fromJson(run.out).object();
}

QJsonArray episodesOf(const QString& db, const QString& resource)
{
    return history(db, resource).value(QStringLiteral("episodes")).toArray();
}

qint64 msOf(const QJsonValue& time)
{
    return QDateTime::fromString(time.toString(), Qt::ISODateWithMs).toMSecsSinceEpoch();
}

// How the episode of `token` ended, as `lockctl history` tells it ("" while there is none).
QString endOf(const QString& db, const QString& token)
{
    for (const QJsonValue& e : episodesOf(db, QStringLiteral("lock:c")))
        if (e.toObject().value(QStringLiteral("token")).toString() == token)
            return e.toObject().value(QStringLiteral("ended")).toString();
    return QString();
}

// Five masters with keyspace events and `lockctl record` writing `db`.
struct RecordedMasters
{
    RedisServerGroup group;
    LockctlProcess recorder;

    bool start(const QString& db)
    {
        RedisServerOptions options;
        options.notifications = true;
        if (!group.start(5, options)) {
            qWarning("%s", qPrintable(group.errorString()));
            return false;
        }
        return recorder.start(group.lockctlArgs() +
                              QStringList{QStringLiteral("record"), QStringLiteral("--db"), db}) &&
               recorder.waitForOutput("recording 5 master(s)");
    }
    void set(const QList<int>& masters, const QByteArray& token)
    {
        for (int m : masters)
            group.at(m).command({"SET", "lock:c", token, "PX", "600000"});
    }
};

} // namespace

class TestUiContestedHistory : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void twoTokensAtOnceAreTwoHoldersAtOnce();
    void aHolderWrittenOverWasReplaced();

private:
    QTemporaryDir m_dir;
};

void TestUiContestedHistory::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uicontestedhistory"));
}

void TestUiContestedHistory::twoTokensAtOnceAreTwoHoldersAtOnce()
{
    const QString db = m_dir.filePath(QStringLiteral("contested.sqlite"));
    {
        RecordedMasters rig;
        QVERIFY2(rig.start(db), qPrintable(rig.recorder.describe()));
        RedisServerGroup& group = rig.group;
        LockctlProcess& recorder = rig.recorder;
        const auto set = [&rig](const QList<int>& masters, const QByteArray& token) {
            rig.set(masters, token);
        };
        // A on three masters, then B on the other two: contested, A with the majority.
        set({0, 1, 2}, "tok-a");
        QVERIFY(QTest::qWaitFor([&] { return episodesOf(db, QStringLiteral("lock:c")).size() == 1; },
                                int(upperBoundMs(10000))));
        set({3, 4}, "tok-b");
        QVERIFY(QTest::qWaitFor([&] { return episodesOf(db, QStringLiteral("lock:c")).size() == 2; },
                                int(upperBoundMs(10000))));
        // The majority changes sides: B on three, A on two. Still both at once.
        set({2}, "tok-b");
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QJsonArray events =
                    history(db, QStringLiteral("lock:c")).value(QStringLiteral("events")).toArray();
                for (const QJsonValue& e : events)
                    if (e.toObject().value(QStringLiteral("event")).toString() == QLatin1String("holders") &&
                        e.toObject().value(QStringLiteral("token")).toString() == QLatin1String("tok-b") &&
                        e.toObject().value(QStringLiteral("holding")).toInt() == 3)
                        return true;
                return false;
            },
            int(upperBoundMs(10000))));
        for (int m = 0; m < 5; ++m)
            group.at(m).command({"DEL", "lock:c"});
        QJsonObject last; // what the recording said last, shown when it never says both ended
        const bool bothEnded = QTest::qWaitFor(
            [&] {
                last = history(db, QStringLiteral("lock:c"));
                const QJsonArray episodes = last.value(QStringLiteral("episodes")).toArray();
                return episodes.size() == 2 &&
                       episodes.at(0).toObject().value(QStringLiteral("ended")).toString() !=
                           QLatin1String("open") &&
                       episodes.at(1).toObject().value(QStringLiteral("ended")).toString() !=
                           QLatin1String("open");
            },
            int(upperBoundMs(10000)));
        if (!bothEnded)
            qWarning("%s", QJsonDocument(last).toJson().constData());
        QVERIFY(bothEnded);
        QCOMPARE(recorder.terminate(), 0);
    }

    // lockctl history: two episodes, at once, each released, none replaced.
    const QJsonArray episodes = episodesOf(db, QStringLiteral("lock:c"));
    QCOMPARE(episodes.size(), 2);
    const QJsonObject a = episodes.at(0).toObject();
    const QJsonObject b = episodes.at(1).toObject();
    QCOMPARE(a.value(QStringLiteral("token")).toString(), QStringLiteral("tok-a"));
    QCOMPARE(b.value(QStringLiteral("token")).toString(), QStringLiteral("tok-b"));
    QCOMPARE(a.value(QStringLiteral("ended")).toString(), QStringLiteral("released"));
    QCOMPARE(b.value(QStringLiteral("ended")).toString(), QStringLiteral("released"));
    QVERIFY(msOf(b.value(QStringLiteral("start"))) < msOf(a.value(QStringLiteral("end"))));
    QCOMPARE(a.value(QStringLiteral("maxHolding")).toInt(), 3);
    QCOMPARE(b.value(QStringLiteral("maxHolding")).toInt(), 3);
    bool contested = false;
    for (const QJsonValue& e :
         history(db, QStringLiteral("lock:c")).value(QStringLiteral("events")).toArray()) {
        QVERIFY(e.toObject().value(QStringLiteral("event")).toString() != QLatin1String("replaced"));
        contested =
            contested || e.toObject().value(QStringLiteral("event")).toString() == QLatin1String("contested");
    }
    QVERIFY(contested);

    // The window's review of the same file: both bars, and the stretch they overlap in red.
    LockScopeConfig none;
    none.readOnly = true;
    MainWindow window(none, m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.review(db, "lock:c");
    HistoryTimeline* timeline = window.historyDock()->timeline();
    QTRY_COMPARE_WITH_TIMEOUT(timeline->episodes().size(), 2, 10000);
    QCOMPARE(timeline->episodes().at(0).ended, Episode::End::Released);
    QCOMPARE(timeline->episodes().at(1).ended, Episode::End::Released);
    timeline->resize(700, 160);
    timeline->grab();
    QCOMPARE(timeline->overlapsDrawn(), 1);
}

void TestUiContestedHistory::aHolderWrittenOverWasReplaced()
{
    // B held beside A on two masters, then A written over both of B's copies (a plain SET: a steal).
    // B never let go: its episode ended "replaced" (the recorder said "released" before), and A's
    // goes on until it is deleted.
    const QString db = m_dir.filePath(QStringLiteral("written-over.sqlite"));
    {
        RecordedMasters rig;
        QVERIFY2(rig.start(db), qPrintable(rig.recorder.describe()));
        rig.set({0, 1, 2}, "tok-a");
        QVERIFY(QTest::qWaitFor([&] { return endOf(db, QStringLiteral("tok-a")) == QLatin1String("open"); },
                                int(upperBoundMs(10000))));
        rig.set({3, 4}, "tok-b");
        QVERIFY(QTest::qWaitFor([&] { return endOf(db, QStringLiteral("tok-b")) == QLatin1String("open"); },
                                int(upperBoundMs(10000))));
        rig.set({3, 4}, "tok-a");
        QVERIFY(QTest::qWaitFor([&] { return endOf(db, QStringLiteral("tok-b")) != QLatin1String("open"); },
                                int(upperBoundMs(10000))));
        QCOMPARE(endOf(db, QStringLiteral("tok-b")), QStringLiteral("replaced"));
        QCOMPARE(endOf(db, QStringLiteral("tok-a")), QStringLiteral("open"));
        for (int m = 0; m < 5; ++m)
            rig.group.at(m).command({"DEL", "lock:c"});
        QVERIFY(QTest::qWaitFor([&] { return endOf(db, QStringLiteral("tok-a")) != QLatin1String("open"); },
                                int(upperBoundMs(10000))));
        QCOMPARE(rig.recorder.terminate(), 0);
    }
    QCOMPARE(endOf(db, QStringLiteral("tok-a")), QStringLiteral("released"));

    // The window's review of the file tells it the same way.
    LockScopeConfig none;
    none.readOnly = true;
    MainWindow window(none, m_dir.filePath(QStringLiteral("audit-2.jsonl")));
    window.review(db, "lock:c");
    HistoryTimeline* timeline = window.historyDock()->timeline();
    QTRY_COMPARE_WITH_TIMEOUT(timeline->episodes().size(), 2, 10000);
    QCOMPARE(timeline->episodes().at(0).ended, Episode::End::Released);
    QCOMPARE(timeline->episodes().at(1).ended, Episode::End::Replaced);
}

LOCKSCOPE_TEST_MAIN(TestUiContestedHistory)

} // namespace tst_uicontestedhistory

#include "tst_uicontestedhistory.moc"
