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

QTEST_MAIN(TestUiCoreProgress)
#include "tst_uicoreprogress.moc"
