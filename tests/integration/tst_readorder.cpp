// SPDX-License-Identifier: Apache-2.0
// What the scanner reads of a key reaches the monitor in the order it was read. A read that holds a
// hash (a Redisson lock) needs a second round trip, and a read sent after it finishes first: what
// the first read learnt of its other keys is then older than what the monitor already has. A
// fencing counter went 34, then 33 (a proven "fencing regression" on a healthy master, in
// tst_incidentsoak's fenced case), and a lock's copy can go back the same way. One real master with
// keyspace events; a writer changes a hash and a counter together, then the counter alone, round
// after round: every value the monitor reports of the counter must be higher than the one before.
#include "discovery/entryscanner.h"
#include "monitor/lockmonitor.h"
#include "support/monitorrun.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QScopeGuard>
#include <QTest>

#include <hiredis/hiredis.h>

#include <atomic>
#include <thread>

namespace tst_readorder {

using namespace lockscope;
using namespace lockscope::test;

class TestReadOrder : public QObject
{
    Q_OBJECT

private slots:
    void aCounterNeverReadsBackwards();
};

void TestReadOrder::aCounterNeverReadsBackwards()
{
    LockScopeConfig config;
    config.monitor.patterns = {ScanPattern("lock:*"), ScanPattern("fence:*", PatternMode::Fencing)};
    config.monitor.pollIntervalMs = 600000; // events only: a pass would read in order anyway
    RedisServerGroup group;
    RedisServerOptions events;
    events.notifications = true;
    QVERIFY2(group.start(1, events), qPrintable(group.errorString()));
    config.masters = group.connectionOptions(2000);
    MonitorRun run(config);
    LockMonitor& monitor = run.monitor();
    QList<qint64> values;
    std::atomic<qint64> read = 0; // the highest value read, for the writer's thread
    connect(&monitor, &LockMonitor::fenceCounterRead, this,
            [&values, &read](int, const QByteArray&, const QByteArray& key, qint64 value) {
                if (key == "fence:orders") {
                    values << value;
                    read = std::max<qint64>(read, value);
                }
            });
    QVERIFY(run.startAndScan(5000));
    QTRY_VERIFY_WITH_TIMEOUT(monitor.scanner(0)->mode() == NotificationMode::Live, int(upperBoundMs(5000)));

    // Rounds of a writer on its own thread: the counter, 2000 other keys of 4 KB and the hash in one
    // script (their events come together, one read takes them all, and its first round trip is
    // long), then, a few ms later, the counter alone (read on its own, sent while the long read is
    // still out). Each round waits until the monitor has read the round's last value, so that no
    // round's reads take in the next one's writes.
    std::atomic<bool> stop = false;
    std::atomic<qint64> written = 0;
    constexpr int rounds = 20;
    std::thread writer([port = group.at(0).adminPort(), password = group.at(0).options().password.toUtf8(),
                        &stop, &written, &read] {
        const char* script = "redis.call('incr', KEYS[2]) local v = string.rep('x', 4096) "
                             "for i = 1, 2000 do redis.call('set', 'lock:big:' .. i, v) end "
                             "redis.call('hset', KEYS[1], 'holder', ARGV[1])";
        redisContext* c = redisConnect("127.0.0.1", port);
        if (c && !c->err)
            freeReplyObject(redisCommand(c, "AUTH %b", password.constData(), size_t(password.size())));
        for (int i = 0; i < rounds && c && !c->err && !stop; ++i) {
            freeReplyObject(redisCommand(c, "EVAL %s 2 lock:orders fence:orders %d", script, i));
            std::this_thread::sleep_for(std::chrono::milliseconds(2 + i % 8));
            auto* b = static_cast<redisReply*>(redisCommand(c, "INCR fence:orders"));
            if (b && b->type == REDIS_REPLY_INTEGER)
                written = b->integer;
            freeReplyObject(b);
            for (int wait = 0; read < written && wait < 2000 && !stop; ++wait)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        redisFree(c);
        stop = true;
    });
    const auto join = qScopeGuard([&] {
        stop = true;
        if (writer.joinable())
            writer.join();
    });
    QTRY_VERIFY_WITH_TIMEOUT(stop, int(upperBoundMs(120000)));
    writer.join();
    const qint64 expected = written;
    QCOMPARE(expected, 2 * rounds);
    // Every change is read at least once more after it happened: the last value read is the last
    // value written.
    QTRY_VERIFY2_WITH_TIMEOUT(
        !values.isEmpty() && values.last() >= expected,
        qPrintable(
            QStringLiteral("last read %1 of %2").arg(values.isEmpty() ? -1 : values.last()).arg(expected)),
        int(upperBoundMs(10000)));
    for (qsizetype i = 1; i < values.size(); ++i)
        QVERIFY2(values[i] > values[i - 1], qPrintable(QStringLiteral("read %1 after %2 (read %3 of %4)")
                                                           .arg(values[i])
                                                           .arg(values[i - 1])
                                                           .arg(i + 1)
                                                           .arg(values.size())));
    qInfo("%d values read of %lld written", int(values.size()), qlonglong(expected));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestReadOrder)

} // namespace tst_readorder

#include "tst_readorder.moc"
