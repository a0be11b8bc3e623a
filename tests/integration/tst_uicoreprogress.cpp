// The core's scan progress reaches the window a few times a second, not once per SCAN page: over a
// large keyspace the pages come by the thousand, and each report is an event the GUI thread takes.
#include "coreservice.h"
#include "redisserver.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lockscope;
using namespace lockscope::test;

class TestUiCoreProgress : public QObject
{
    Q_OBJECT

private slots:
    void progressIsPacedAndEndsComplete();
    void locksAreForeseenEarlyInTheFirstScan();
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
    LockScopeConfig config;
    config.masters = {server.connectionOptions()};
    config.monitor.patterns = {ScanPattern("*lock*")};
    config.monitor.scanCount = 10;
    CoreService core(config, dir.filePath(QStringLiteral("audit.jsonl")));
    QSignalSpy progress(&core, &CoreService::scanProgress);
    QSignalSpy finished(&core, &CoreService::initialScanFinished);
    QElapsedTimer clock;
    clock.start();
    core.start();
    QVERIFY(finished.wait(60000));
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
    LockScopeConfig config;
    config.masters = {server.connectionOptions()};
    config.monitor.patterns = {ScanPattern("lock:*")};
    config.monitor.scanCount = 100;
    CoreService core(config, dir.filePath(QStringLiteral("audit.jsonl")));
    QSignalSpy foreseen(&core, &CoreService::locksForeseen);
    QSignalSpy finished(&core, &CoreService::initialScanFinished);
    core.start();
    QVERIFY(finished.wait(60000));
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

QTEST_MAIN(TestUiCoreProgress)
#include "tst_uicoreprogress.moc"
