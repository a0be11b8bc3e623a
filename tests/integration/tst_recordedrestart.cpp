// SPDX-License-Identifier: Apache-2.0
#include "monitor/lockmonitor.h"
#include "record/recorder.h"
#include "record/recorderoptions.h"
#include "record/recordingreader.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "topology/masterset.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace tst_recordedrestart {

using namespace lockscope;
using namespace lockscope::test;

// How the flight recorder ends an episode after a master restart (issue #48's false alarm): a token
// first seen on a master after that master restarted lost nothing to the restart, so its holder's
// delete is a release; a token that was on the master when it restarted lost its copy. Three real
// masters, polled (no keyspace events: the recorder has only its reads to judge by). The truth is
// what the test itself did. Without the fix, "after" was recorded lost.
class TestRecordedRestart : public QObject
{
    Q_OBJECT

private slots:
    void aCopyWrittenAfterARestartIsReleasedNotLost();
};

namespace {

// The kind of the event that ended `token`'s episode of `resource`.
QString endOf(const QString& path, const QByteArray& resource, const QByteArray& token)
{
    RecordingReader reader;
    if (reader.open(path).isError())
        return QStringLiteral("(no recording)");
    const Result<ResourceHistory> history = reader.history(resource);
    if (!history)
        return QStringLiteral("(no history)");
    QString last = QStringLiteral("(none)");
    for (const HistoryEvent& h : history->events)
        if (h.event.token == token)
            last = recordEventKindName(h.event.kind);
    return last;
}

} // namespace

void TestRecordedRestart::aCopyWrittenAfterARestartIsReleasedNotLost()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("recording.sqlite"));
    MasterSet masters(quickConfig(group).masters);
    auto monitor = std::make_unique<LockMonitor>(&masters, quickConfig(group));
    RecorderOptions options;
    options.path = path;
    options.flushIntervalMs = 100;
    Recorder::record(monitor.get(), options);
    QSignalSpy scanned(monitor.get(), &LockMonitor::initialScanFinished);
    QSignalSpy restarted(&masters, &MasterSet::masterRestarted);
    masters.open();
    monitor->start();
    QVERIFY(scanned.wait(int(upperBoundMs(30000))));
    const auto onAll = [&](const QByteArray& key, int holding) {
        return QTest::qWaitFor(
            [&] { return monitor->locks().contains(key) && monitor->locks().value(key)->holding == holding; },
            int(upperBoundMs(15000)));
    };
    const auto gone = [&](const QByteArray& key) {
        return QTest::qWaitFor([&] { return !monitor->locks().contains(key); }, int(upperBoundMs(15000)));
    };

    // "solo" is on the third master only when it restarts: its copy goes with the restart, lost.
    // "after" is on the first only then; its holder reaches the other two once the restart is
    // known (as a Redlock client retrying a master that was away), and later deletes it: a release,
    // although a master restarted during its episode.
    group.at(2).command({"SET", "lock:solo", "tok-solo", "PX", "600000"});
    group.at(0).command({"SET", "lock:after", "tok-after", "PX", "600000"});
    QVERIFY(onAll("lock:solo", 1));
    QVERIFY(onAll("lock:after", 1));
    QVERIFY(group.at(2).restart());
    QTRY_VERIFY_WITH_TIMEOUT(restarted.size() == 1, int(upperBoundMs(15000)));
    QVERIFY(gone("lock:solo"));
    for (int i = 1; i < 3; ++i)
        group.at(i).command({"SET", "lock:after", "tok-after", "PX", "600000"});
    QVERIFY(onAll("lock:after", 3));
    for (int i = 0; i < 3; ++i)
        QCOMPARE(group.at(i).command({"DEL", "lock:after"}).integer, 1);
    QVERIFY(gone("lock:after"));
    QTest::qWait(300); // flushed every 100 ms
    monitor.reset();   // its recorder with it

    QCOMPARE(endOf(path, "lock:after", "tok-after"), QStringLiteral("released"));
    QCOMPARE(endOf(path, "lock:solo", "tok-solo"), QStringLiteral("lost"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestRecordedRestart)

} // namespace tst_recordedrestart

#include "tst_recordedrestart.moc"
