// SPDX-License-Identifier: Apache-2.0
#include "connection/redisconnection.h"
#include "support/connectionwait.h"
#include "support/interoppeers.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "trace/locktracer.h"

#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <QTimer>

#include <memory>

namespace tst_traceinterop {

using namespace lockscope;
using namespace lockscope::test;

// The lock tracer against real lock libraries (issue #43), pinned in tests/interop: node-redlock and
// redis-semaphore peers contending for one lock on connections they name, while another client runs
// unrelated traffic (some of it spelled like the lock); and redis-py's flash sale. The truth is each
// peer's own count of its attempts (what the library answered it) and the flash sale's own account.
class TestTraceInterop : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void nodeRedlockContendersAreNamedAndCounted();
    void redisSemaphoreContendersAreNamedAndCounted();
    void flashSaleDeleteIsByTheFirstBuyersConnection();

private:
    // Two `kind` peers making `attempts` attempts each on `key` (node's resource `resource`), traced.
    void contend(const QString& kind, const QString& resource, const QByteArray& key);
};

namespace {

TraceLimits longTrace()
{
    TraceLimits limits;
    limits.durationMs = TraceLimits::maxDurationMs;
    return limits;
}

struct Traced
{
    Traced(const ConnectionOptions& options, const QByteArray& key)
        : tracer(key, {LockTracer::Target{0, options}}, longTrace())
    {
        QObject::connect(&tracer, &LockTracer::traced, [this](const TracedCommand& c) { commands << c; });
        QObject::connect(&tracer, &LockTracer::masterMonitoring, [this](int) { monitoring = true; });
        tracer.start();
    }
    LockTracer tracer;
    QList<TracedCommand> commands;
    bool monitoring = false;
};

// Unrelated traffic every few ms while it lives: other keys, a key that starts like the lock, a
// value and a script argument spelled like it.
struct Noise
{
    Noise(const ConnectionOptions& options, const QByteArray& key)
    {
        ConnectionOptions o = options;
        o.clientName = "noise";
        connection = std::make_unique<RedisConnection>(o);
        connection->open();
        QObject::connect(&timer, &QTimer::timeout, [this, key] {
            const QByteArray n = QByteArray::number(++sent);
            connection->send({"SET", "other:" + n, key});
            connection->send({"SET", key + "x", n, "PX", "1000"});
            connection->send({"EVAL", "return redis.call('get', KEYS[1])", "1", "other:" + n, key});
        });
        timer.start(5);
    }
    std::unique_ptr<RedisConnection> connection;
    QTimer timer;
    int sent = 0;
};

} // namespace

void TestTraceInterop::init()
{
    LOCKSCOPE_SKIP_WITHOUT_PEERS();
}

void TestTraceInterop::contend(const QString& kind, const QString& resource, const QByteArray& key)
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    const ConnectionOptions options = group.at(0).connectionOptions(5000);
    Traced t(options, key);
    QTRY_VERIFY_WITH_TIMEOUT(t.monitoring, 10000);
    Noise noise(options, key);
    QProcess a;
    QProcess b;
    const QString url = group.urls(false).first();
    InteropPeers::startNode(
        a, {kind, resource, QStringLiteral("500"), QStringLiteral("30"), QStringLiteral("peer-a"), url});
    InteropPeers::startNode(
        b, {kind, resource, QStringLiteral("500"), QStringLiteral("30"), QStringLiteral("peer-b"), url});
    QTRY_VERIFY_WITH_TIMEOUT(a.state() == QProcess::NotRunning && b.state() == QProcess::NotRunning, 60000);
    noise.timer.stop();
    QVERIFY(callAndWait(*noise.connection, {"PING"}).ok());
    QTest::qWait(500); // the last commands reach the tracer
    t.tracer.stop();
    QVERIFY2(noise.sent > 50, "too little unrelated traffic to mean anything");

    int refusedInAll = 0;
    for (QProcess* peer : {&a, &b}) {
        QCOMPARE(peer->exitCode(), 0);
        const QList<QJsonObject> lines = InteropPeers::jsonLines(peer->readAllStandardOutput());
        QVERIFY(!lines.isEmpty());
        const QJsonObject done = lines.last();
        QCOMPARE(done.value(QStringLiteral("event")).toString(), QStringLiteral("done"));
        const QByteArray name = done.value(QStringLiteral("name")).toString().toUtf8();
        const auto& contenders = t.tracer.summary().contenders();
        const auto it = std::find_if(contenders.cbegin(), contenders.cend(),
                                     [&](const TraceSummary::Contender& c) { return c.client.name == name; });
        QVERIFY2(it != contenders.cend(), name.constData());
        // The peer's own count, attempt for attempt (its commands, should they differ).
        QStringList its;
        for (const TracedCommand& c : std::as_const(t.commands))
            if (c.client.name == name)
                its << traceMeaningName(c.meaning) + QLatin1Char(' ') +
                           QString::fromLatin1(c.args.join(' ').left(60)) + QLatin1Char(' ') +
                           c.detail.left(60);
        if (it->attempts != done.value(QStringLiteral("attempts")).toInt())
            for (const QString& line : std::as_const(its))
                qInfo("%s traced: %s", name.constData(), qPrintable(line));
        QCOMPARE(it->attempts, qint64(done.value(QStringLiteral("attempts")).toInt()));
        QCOMPARE(it->acquired, qint64(done.value(QStringLiteral("acquired")).toInt()));
        QCOMPARE(it->refused, qint64(done.value(QStringLiteral("refused")).toInt()));
        QCOMPARE(it->released, it->acquired);
        QCOMPARE(it->warnings, 0);
        refusedInAll += done.value(QStringLiteral("refused")).toInt();
    }
    QVERIFY2(refusedInAll > 0, "the peers never contended: the test shows nothing about refusals");
    for (const TracedCommand& c : std::as_const(t.commands)) {
        QVERIFY(c.client.name != "noise");
        QVERIFY2(c.args.contains(key), qPrintable(QString::fromLatin1(c.args.join(' ').left(200))));
    }
}

void TestTraceInterop::nodeRedlockContendersAreNamedAndCounted()
{
    contend(QStringLiteral("attempt-redlock"), QStringLiteral("lock:peers"), "lock:peers");
}

void TestTraceInterop::redisSemaphoreContendersAreNamedAndCounted()
{
    contend(QStringLiteral("attempt-mutex"), QStringLiteral("peers"), "mutex:peers");
}

void TestTraceInterop::flashSaleDeleteIsByTheFirstBuyersConnection()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    Traced t(group.at(0).connectionOptions(5000), "sale:lock");
    QTRY_VERIFY_WITH_TIMEOUT(t.monitoring, 10000);
    const QJsonObject sale = InteropPeers::flashSale(QStringLiteral("sale:lock"), group.urls(false).first());
    QVERIFY2(!sale.isEmpty(), "flash_sale.py failed");
    QCOMPARE(sale.value(QStringLiteral("deleted")).toInt(), 1); // A's DEL took B's lock
    QTest::qWait(500);
    t.tracer.stop();
    const QByteArray tokenA = sale.value(QStringLiteral("tokenA")).toString().toUtf8();
    const QByteArray tokenB = sale.value(QStringLiteral("tokenB")).toString().toUtf8();
    const auto takenBy = [&t](const QByteArray& token) {
        for (const TracedCommand& c : std::as_const(t.commands))
            if (c.meaning == TraceMeaning::Acquired && c.token == token)
                return c.client.address;
        return QByteArray();
    };
    const QByteArray addressA = takenBy(tokenA);
    QVERIFY(!addressA.isEmpty());
    QVERIFY(!takenBy(tokenB).isEmpty());
    QVERIFY(addressA != takenBy(tokenB));
    QList<TracedCommand> deletes;
    for (const TracedCommand& c : std::as_const(t.commands))
        if (c.meaning == TraceMeaning::DeletedByNonHolder)
            deletes << c;
    QCOMPARE(deletes.size(), 1);
    QCOMPARE(deletes.first().client.address, addressA);
    QCOMPARE(deletes.first().token, tokenB);
    // B's tries while A held it were refused, and nothing else warns.
    QVERIFY(std::any_of(t.commands.cbegin(), t.commands.cend(),
                        [](const TracedCommand& c) { return c.meaning == TraceMeaning::Refused; }));
    QCOMPARE(t.tracer.summary().warnings().size(), 1);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestTraceInterop)

} // namespace tst_traceinterop

#include "tst_traceinterop.moc"
