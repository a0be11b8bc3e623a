// SPDX-License-Identifier: Apache-2.0
// lockctl and the monitor against a peer that speaks RESP but misbehaves the way no real redis-server
// does: replies that announce (or stream) more than any lock tool reads, nesting deeper than it can
// parse, and a SCAN that never returns cursor 0. Each must fail that master with a clear error, fast,
// instead of eating memory or waiting forever.
#include "config/configloader.h"
#include "discovery/entryscanner.h"
#include "monitor/lockmonitor.h"
#include "support/fakeredispeer.h"
#include "support/lockctlrun.h"
#include "support/redisserver.h"
#include "support/scriptedtransport.h"
#include "support/testregistry.h"
#include "support/timebound.h"
#include "topology/masterset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace tst_hostilepeer {

using namespace lockscope;
using namespace lockscope::test;

namespace {

using T = ScriptedTransport;

// Keeps writing `chunk` to `socket` every millisecond, up to `times` times or until it goes: the body
// of a reply that never ends (about 64 MB/s, so that an unlimited reader would grow without bound).
void stream(QTcpSocket* socket, const QByteArray& chunk, int times)
{
    auto* timer = new QTimer(socket);
    auto left = std::make_shared<int>(times);
    QObject::connect(timer, &QTimer::timeout, socket, [socket, timer, chunk, left] {
        if (--*left < 0 || socket->state() != QAbstractSocket::ConnectedState) {
            timer->stop();
            return;
        }
        socket->write(chunk);
    });
    timer->start(1);
}

// `lockctl --json list` against the peer alone; the master's entry of its answer.
QJsonObject listMaster(const FakeRedisPeer& peer, LockctlRun* run, const QStringList& extra = {})
{
    *run = runLockctl(QStringList{QStringLiteral("--json"), QStringLiteral("--timeout-ms"),
                                  QStringLiteral("3000"), QStringLiteral("-m"), peer.url()} +
                          extra + QStringList{QStringLiteral("list")},
                      int(upperBoundMs(20000)));
    return QJsonDocument::fromJson(run->out)
        .object()
        .value(QStringLiteral("masters"))
        .toArray()
        .at(0)
        .toObject();
}

} // namespace

class TestHostilePeer : public QObject
{
    Q_OBJECT

private slots:
    void hugeBulkFailsTheMaster();
    void elementFloodFailsTheMaster();
    void deepReplyFailsTheMaster();
    void limitsComeFromTheConfigFile();
    void endlessScanEndsWithAnError();
    void monitorMarksEndlessScanMaster();
};

void TestHostilePeer::hugeBulkFailsTheMaster()
{
    // SCAN is answered with a 10 GB string whose bytes keep coming.
    FakeRedisPeer peer([](const QByteArrayList& argv, QTcpSocket* socket) -> std::optional<QByteArray> {
        if (argv.first().toUpper() != "SCAN")
            return std::nullopt;
        stream(socket, QByteArray(64 * 1024, 'x'), 20000);
        return QByteArray("*2\r\n$1\r\n0\r\n*1\r\n$10000000000\r\n");
    });
    QVERIFY(peer.isListening());
    LockctlRun run;
    const QJsonObject master = listMaster(peer, &run);
    QVERIFY2(run.code > 0, qPrintable(run.describe()));
    QVERIFY2(run.ms < upperBoundMs(10000), qPrintable(run.describe()));
    const QString error = master.value(QStringLiteral("error")).toString();
    QVERIFY2(error.contains(QStringLiteral("reply too large")) &&
                 error.contains(QStringLiteral("maxBulkBytes")),
             qPrintable(run.describe()));
    QVERIFY(peer.commandCount("SCAN") >= 1);
}

void TestHostilePeer::elementFloodFailsTheMaster()
{
    FakeRedisPeer peer([](const QByteArrayList& argv, QTcpSocket* socket) -> std::optional<QByteArray> {
        if (argv.first().toUpper() != "SCAN")
            return std::nullopt;
        QByteArray elements;
        for (int i = 0; i < 4096; ++i)
            elements += "$1\r\nk\r\n";
        stream(socket, elements, 20000);
        return QByteArray("*2\r\n$1\r\n0\r\n*2000000000\r\n");
    });
    LockctlRun run;
    const QString error = listMaster(peer, &run).value(QStringLiteral("error")).toString();
    QVERIFY2(run.code > 0 && run.ms < upperBoundMs(10000), qPrintable(run.describe()));
    QVERIFY2(error.contains(QStringLiteral("reply too large")) &&
                 error.contains(QStringLiteral("maxElements")),
             qPrintable(run.describe()));
}

void TestHostilePeer::deepReplyFailsTheMaster()
{
    FakeRedisPeer peer([](const QByteArrayList& argv, QTcpSocket*) -> std::optional<QByteArray> {
        if (argv.first().toUpper() != "SCAN")
            return std::nullopt;
        QByteArray deep = T::bulk("k");
        for (int level = 0; level < 40; ++level)
            deep = T::array({deep});
        return T::array({T::bulk("0"), deep});
    });
    LockctlRun run;
    const QString error = listMaster(peer, &run).value(QStringLiteral("error")).toString();
    QVERIFY2(run.code > 0 && run.ms < upperBoundMs(10000), qPrintable(run.describe()));
    QVERIFY2(error.contains(QStringLiteral("reply too deep")) && error.contains(QStringLiteral("maxDepth")),
             qPrintable(run.describe()));
}

void TestHostilePeer::limitsComeFromTheConfigFile()
{
    // A 4 KB key name is fine by the defaults, and over a limit of 2 KB set in the configuration.
    FakeRedisPeer peer([](const QByteArrayList& argv, QTcpSocket*) -> std::optional<QByteArray> {
        if (argv.first().toUpper() != "SCAN")
            return std::nullopt;
        return T::array({T::bulk("0"), T::array({T::bulk("lock:" + QByteArray(4096, 'n'))})});
    });
    QTemporaryDir dir;
    QFile config(dir.filePath(QStringLiteral("lockscope.json")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(R"({"replyLimits": {"maxBulkBytes": 2048}})");
    config.close();
    LockctlRun run;
    const QString error = listMaster(peer, &run, {QStringLiteral("--config"), config.fileName()})
                              .value(QStringLiteral("error"))
                              .toString();
    QVERIFY2(run.code > 0 && run.ms < upperBoundMs(10000), qPrintable(run.describe()));
    QVERIFY2(error.contains(QStringLiteral("2048")) && error.contains(QStringLiteral("maxBulkBytes")),
             qPrintable(run.describe()));
}

void TestHostilePeer::endlessScanEndsWithAnError()
{
    // Every page names a next cursor, none is ever 0; DBSIZE says 5 keys.
    int cursor = 0;
    FakeRedisPeer peer([&cursor](const QByteArrayList& argv, QTcpSocket*) -> std::optional<QByteArray> {
        const QByteArray name = argv.first().toUpper();
        if (name == "DBSIZE")
            return T::integer(5);
        if (name != "SCAN")
            return std::nullopt;
        return T::array({T::bulk(QByteArray::number(++cursor)), T::array({})});
    });
    const LockctlRun run = runLockctl({QStringLiteral("--timeout-ms"), QStringLiteral("3000"),
                                       QStringLiteral("-m"), peer.url(), QStringLiteral("list")},
                                      int(upperBoundMs(20000)));
    QVERIFY2(run.code > 0, qPrintable(run.describe()));
    QVERIFY2(run.ms < upperBoundMs(15000), qPrintable(run.describe()));
    QVERIFY2(run.err.contains("cannot scan: SCAN did not return cursor 0 after"), qPrintable(run.describe()));
    QVERIFY2(run.err.contains(peer.url().toUtf8()), qPrintable(run.describe()));
}

void TestHostilePeer::monitorMarksEndlessScanMaster()
{
    // A real master holding a lock, and the endless one: the lock is shown with the second master
    // unreadable ("cannot scan"), not as absent there, and the first picture is not held back.
    RedisServer real;
    QVERIFY2(real.start(), qPrintable(real.errorString()));
    QCOMPARE(real.command({"SET", "lock:x", "tok-x", "PX", "600000"}).string, QByteArray("OK"));
    qint64 cursor = 0;
    FakeRedisPeer peer([&cursor](const QByteArrayList& argv, QTcpSocket*) -> std::optional<QByteArray> {
        const QByteArray name = argv.first().toUpper();
        if (name == "DBSIZE")
            return T::integer(100);
        if (name != "SCAN")
            return std::nullopt;
        return T::array({T::bulk(QByteArray::number(++cursor)), T::array({})});
    });
    LockScopeConfig config;
    config.masters << real.connectionOptions();
    Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(peer.url(), TlsOptions(), 2000);
    QVERIFY(master.ok());
    config.masters << *master;
    config.monitor.pollIntervalMs = 60000; // no second pass within the test
    MasterSet masters(config.masters);
    masters.open();
    LockMonitor monitor(&masters, config);
    monitor.start();
    // About a thousand paced pages (the bound for DBSIZE 100 and three patterns), each a PING and a
    // SCAN through this thread's event loop: 9 s here in a release build. Paced, so slower on a
    // loaded machine: the bound only says it did not hang.
    QTRY_VERIFY_WITH_TIMEOUT(monitor.isInitialScanDone(), int(upperBoundMs(40000)));
    // The master answers; its scan cannot be trusted.
    QVERIFY2(masters.at(1)->isUp(), qPrintable(masters.at(1)->lastError().message));
    QVERIFY2(monitor.scanner(1)->modeReason().contains(QStringLiteral("SCAN did not return cursor 0")),
             qPrintable(monitor.scanner(1)->modeReason()));
    QTRY_VERIFY_WITH_TIMEOUT(monitor.locks().contains("lock:x") &&
                                 monitor.locks().value("lock:x")->observations.size() == 2 &&
                                 monitor.locks().value("lock:x")->observations.at(1).error().message.contains(
                                     QStringLiteral("cannot scan")),
                             int(upperBoundMs(5000)));
    // The pass has stopped: no more pages are asked for.
    const qint64 pages = cursor;
    QVERIFY(pages > 64);
    QTest::qWait(300);
    QCOMPARE(cursor, pages);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestHostilePeer)

} // namespace tst_hostilepeer

#include "tst_hostilepeer.moc"
