// SPDX-License-Identifier: Apache-2.0
// The core's scan progress reaches the window a few times a second, not once per SCAN page: over a
// large keyspace the pages come by the thousand, and each report is an event the GUI thread takes.
#include "session/coreservice.h"
#include "support/redisserver.h"
#include "support/testregistry.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace tst_uicoreprogress {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// One master, scanned for `pattern` `scanCount` keys a page (0: the default).
LockScopeConfig scanning(const RedisServer& server, const QByteArray& pattern, int scanCount = 0)
{
    LockScopeConfig config;
    config.masters = {server.connectionOptions()};
    config.monitor.patterns = {ScanPattern(pattern)};
    if (scanCount > 0)
        config.monitor.scanCount = scanCount;
    return config;
}

} // namespace

class TestUiCoreProgress : public QObject
{
    Q_OBJECT

private slots:
    void progressIsPacedAndEndsComplete();
    void locksAreForeseenEarlyInTheFirstScan();
    void theWindowIsSentNoMoreThanItTakesIn();
};

void TestUiCoreProgress::progressIsPacedAndEndsComplete()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    // 20,000 keys read 10 at a time: 2,000 SCAN pages, each a progress report from the scanner.
    for (int chunk = 0; chunk < 20; ++chunk) {
        QByteArrayList mset{"MSET"};
        for (int i = 0; i < 1000; ++i)
            mset << "key:" + QByteArray::number(chunk * 1000 + i) << "v";
        QVERIFY(server.command(mset).isStatus());
    }
    QTemporaryDir dir;
    CoreService core(scanning(server, "*lock*", 10), dir.filePath(QStringLiteral("audit.jsonl")));
    QSignalSpy progress(&core, &CoreService::scanProgress);
    QSignalSpy finished(&core, &CoreService::initialScanFinished);
    QElapsedTimer clock;
    clock.start();
    core.start();
    QVERIFY(finished.wait(int(lockscope::test::upperBoundMs(60000))));
    const qint64 elapsedMs = clock.elapsed();
    // Before pacing: about 2,000 reports for this one pass.
    QVERIFY2(progress.size() <= elapsedMs / CoreService::progressIntervalMs + 3,
             qPrintable(QStringLiteral("%1 reports in %2 ms").arg(progress.size()).arg(elapsedMs)));
    QVERIFY(!progress.isEmpty());
    const QList<QVariant> last = progress.constLast();
    QCOMPARE(last.at(1).toLongLong(), last.at(2).toLongLong()); // the status bar reaches 100%
    QCOMPARE(last.at(2).toLongLong(), 20000);
    core.shutdown();
}

void TestUiCoreProgress::locksAreForeseenEarlyInTheFirstScan()
{
    // 3,000 locks among 30,000 keys: from a few percent of the keyspace on, the core says how many
    // locks the first scan will find (the window sizes its per-lock tables by it while they are small).
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QCOMPARE(
        server
            .command({"EVAL",
                      "for i = 1, 27000 do redis.call('SET', 'key:' .. i, 'v') end "
                      "for i = 1, 3000 do redis.call('SET', 'lock:' .. i, 't', 'PX', 600000) end return 1",
                      "0"})
            .integer,
        qint64(1));
    QTemporaryDir dir;
    CoreService core(scanning(server, "lock:*", 100), dir.filePath(QStringLiteral("audit.jsonl")));
    QSignalSpy foreseen(&core, &CoreService::locksForeseen);
    QSignalSpy finished(&core, &CoreService::initialScanFinished);
    core.start();
    QVERIFY(finished.wait(int(lockscope::test::upperBoundMs(60000))));
    QVERIFY(!foreseen.isEmpty());
    // The first forecast comes from a small share of the keyspace: within a factor of two of the truth.
    const qint64 first = foreseen.constFirst().at(0).toLongLong();
    QVERIFY2(first >= 1500 && first <= 6000, qPrintable(QString::number(first)));
    // Said again only when it grew by a quarter: a handful of times, not once a page.
    QVERIFY2(foreseen.size() <= 8, qPrintable(QString::number(foreseen.size())));
    for (const QList<QVariant>& said : std::as_const(foreseen))
        QVERIFY(said.at(0).toLongLong() <= 30000);
    core.shutdown();
}

void TestUiCoreProgress::theWindowIsSentNoMoreThanItTakesIn()
{
    // 50,000 locks, and a window that takes nothing in until told to: the core holds back what it
    // has not taken (by name, not as views queued to the GUI thread), then sends it all as it does.
    constexpr int locks = 50000;
    static_assert(locks > 2 * CoreService::maxUntaken);
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QCOMPARE(server
                 .command({"EVAL",
                           "for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'lock:' .. i, 't' .. i, 'PX', "
                           "600000) end return 1",
                           "0", QByteArray::number(locks)})
                 .integer,
             qint64(1));
    QTemporaryDir dir;
    CoreService core(scanning(server, "lock:*"), dir.filePath(QStringLiteral("audit.jsonl")));
    QSet<QByteArray> shown;
    qsizetype received = 0;
    qsizetype took = 0;
    qsizetype mostUntaken = 0;
    int shownWhenFinished = -1;
    connect(&core, &CoreService::locksChanged, &core, [&](const LockBatch& b) {
        received += b.steps();
        mostUntaken = qMax(mostUntaken, received - took);
        for (const LockView& v : b.added)
            shown.insert(v.resource);
    });
    connect(&core, &CoreService::initialScanFinished, &core, [&] { shownWhenFinished = int(shown.size()); });
    core.start();
    // The scan reads all 50,000 within seconds; what the window was sent meanwhile stops at the bound.
    QTRY_VERIFY_WITH_TIMEOUT(received >= CoreService::maxUntaken / 2, 60000);
    QTest::qWait(3000);
    QVERIFY2(received <= CoreService::maxUntaken, qPrintable(QString::number(received)));
    QVERIFY(shown.size() < locks);
    QCOMPARE(shownWhenFinished, -1); // not finished while the window lacks most of the picture
    // The window takes in what it was sent, a slice at a time, and the rest follows.
    QTimer window;
    connect(&window, &QTimer::timeout, &core, [&] {
        const qsizetype slice = qMin<qsizetype>(2000, received - took);
        took += slice;
        if (slice > 0)
            core.windowTook(slice);
    });
    window.start(5);
    QTRY_COMPARE_WITH_TIMEOUT(int(shown.size()), locks, 60000);
    // The scan workers may say their pass is over a little after its last lock went out (a loaded
    // machine): what matters is that the finish never comes before the whole picture.
    QTRY_VERIFY_WITH_TIMEOUT(shownWhenFinished >= 0, 60000);
    QCOMPARE(shownWhenFinished, locks);
    QVERIFY2(mostUntaken <= CoreService::maxUntaken, qPrintable(QString::number(mostUntaken)));
    core.shutdown();
}

LOCKSCOPE_TEST_MAIN(TestUiCoreProgress)

} // namespace tst_uicoreprogress

#include "tst_uicoreprogress.moc"
