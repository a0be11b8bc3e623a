// SPDX-License-Identifier: Apache-2.0
// Two tokens held at once on different masters (a contested lock), and a master that stops
// answering for a moment: what it held last still stands, as for an uncontested lock. The recorder
// ended a token whose only masters did not answer and, when they answered again, began a second
// episode of the same holder (one more "holder at once" in the story, which a post-mortem reads as
// a third client). Real masters, one paused with SIGSTOP, the flight recorder in process.
#include "record/recorder.h"
#include "record/recordingreader.h"
#include "support/monitorharness.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

namespace tst_contestedoutage {

using namespace lockscope;
using namespace lockscope::test;

class TestContestedOutage : public QObject
{
    Q_OBJECT

private slots:
    void aMasterThatStopsAnsweringEndsNoHolder_data();
    void aMasterThatStopsAnsweringEndsNoHolder();
};

namespace {

// The episodes' tokens and ends as the recording has them now ("tok-a open").
QStringList story(Recorder& recorder, const QString& path)
{
    recorder.flush();
    QTest::qWait(100); // the writer's commit
    RecordingReader reader;
    if (reader.open(path).isError())
        return {QStringLiteral("cannot open")};
    const Result<ResourceHistory> h = reader.history("lock:c");
    if (!h)
        return {h.error().message};
    QStringList out;
    for (const Episode& e : h->episodes)
        out << QString::fromLatin1(e.token) + QLatin1Char(' ') + episodeEndName(e.ended);
    return out;
}

} // namespace

void TestContestedOutage::aMasterThatStopsAnsweringEndsNoHolder_data()
{
    QTest::addColumn<QList<int>>("paused");
    QTest::addColumn<int>("other"); // a master that answers
    // Masters 0 and 1 hold the tracked token (the first taken), master 2 the one held beside it.
    QTest::newRow("the side token's master") << QList<int>{2} << 1;
    QTest::newRow("one of the tracked token's masters") << QList<int>{0} << 2;
    QTest::newRow("every one of the tracked token's masters") << QList<int>{0, 1} << 2;
}

void TestContestedOutage::aMasterThatStopsAnsweringEndsNoHolder()
{
    QFETCH(QList<int>, paused);
    QFETCH(int, other);
    RedisServerGroup group;
    std::unique_ptr<MonitorHarness> live;
    QVERIFY2(startLive(group, 3, &live), qPrintable(group.errorString()));
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("contested.sqlite"));
    options.auditLogPath = dir.filePath(QStringLiteral("audit.jsonl"));
    Recorder recorder(options);
    recorder.attach(live->monitor.get());

    group.at(0).command({"SET", "lock:c", "tok-a", "PX", "600000"});
    group.at(1).command({"SET", "lock:c", "tok-a", "PX", "600000"});
    QTRY_VERIFY_WITH_TIMEOUT(live->view("lock:c").holding == 2, int(upperBoundMs(5000)));
    group.at(2).command({"SET", "lock:c", "tok-b", "PX", "600000"});
    QTRY_COMPARE_WITH_TIMEOUT(story(recorder, options.path), QStringList({"tok-a open", "tok-b open"}),
                              int(upperBoundMs(5000)));

    // One master stops answering: its reads time out (500 ms), the others go on being read (a
    // change on a master that answers makes a new view of the lock).
    for (int m : paused)
        group.at(m).pause();
    const auto resume = [&] {
        for (int m : paused)
            group.at(m).resume();
    };
    const auto resumed = qScopeGuard(resume);
    const auto all = [&](auto is) {
        const LockView view = live->view("lock:c");
        return std::all_of(paused.cbegin(), paused.cend(),
                           [&](int m) { return is(view.observations.value(m)); });
    };
    QTRY_VERIFY_WITH_TIMEOUT(all([](const MasterObservation& o) { return o.error().isError(); }),
                             int(upperBoundMs(10000)));
    group.at(other).command({"PEXPIRE", "lock:c", "600000"});
    QTest::qWait(int(upperBoundMs(500)));
    QCOMPARE(story(recorder, options.path), QStringList({"tok-a open", "tok-b open"}));
    resume();
    QTRY_VERIFY_WITH_TIMEOUT(all([](const MasterObservation& o) { return o.present(); }),
                             int(upperBoundMs(10000)));
    group.at(other).command({"PEXPIRE", "lock:c", "600000"});
    QTest::qWait(int(upperBoundMs(500)));
    QCOMPARE(story(recorder, options.path), QStringList({"tok-a open", "tok-b open"}));

    // And each ends once, when it goes (as released, or as lost: a master down less than ten
    // seconds ago may yet turn out to have restarted empty).
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"DEL", "lock:c"});
    QTRY_VERIFY_WITH_TIMEOUT(
        !story(recorder, options.path).join(QLatin1Char(',')).contains(QLatin1String("open")),
        int(upperBoundMs(5000)));
    const QStringList ended = story(recorder, options.path);
    QCOMPARE(ended.size(), 2);
    QVERIFY2(ended.at(0).startsWith(QLatin1String("tok-a ")) &&
                 ended.at(1).startsWith(QLatin1String("tok-b ")),
             qPrintable(ended.join(QLatin1Char(','))));
}

LOCKSCOPE_TEST_MAIN(TestContestedOutage)

} // namespace tst_contestedoutage

#include "tst_contestedoutage.moc"
