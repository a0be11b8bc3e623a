// SPDX-License-Identifier: Apache-2.0
// The shapes the lock libraries without a runnable copy here leave in Redis, written as their own
// code writes them (Redisson's Lua, python-redis-lock, SETNX with a timestamp), and what the
// recogniser reads in each. (The libraries run for real: tst_formatinterop.)
#include "support/keyrecognition.h"
#include "support/redisserver.h"
#include "support/testregistry.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTest>
#include <QUuid>

#include <algorithm>

namespace tst_formatshapes {

using namespace lockscope;
using namespace lockscope::test;

namespace {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QByteArray redissonThreadField(const QByteArray& instance, int thread)
{
    return instance + ':' + QByteArray::number(thread);
}

} // namespace

class TestFormatShapes : public QObject
{
    Q_OBJECT

private slots:
    void redissonShapes();
    void pythonRedisLockShapes();
    void legacyTimestampShapes();
};

void TestFormatShapes::redissonShapes()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const QByteArray instance = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    const QByteArray other = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    const QByteArray field = redissonThreadField(instance, 57);
    const QByteArray otherField = redissonThreadField(other, 1);

    // RLock, as its Lua does it: HINCRBY the thread's field, then PEXPIRE; re-entry repeats both.
    for (int i = 0; i < 2; ++i) {
        QCOMPARE(server.command({"HINCRBY", "orders", field, "1"}).integer, i + 1);
        QCOMPARE(server.command({"PEXPIRE", "orders", "30000"}).integer, 1);
    }
    RecognizedLock lock = recognizeKey(server, "orders");
    QCOMPARE(lock.format, LockFormat::Redisson);
    QCOMPARE(lock.token, field);
    QCOMPARE(lock.owner, QStringLiteral("thread 57 of ") + QString::fromLatin1(instance));
    QCOMPARE(lock.holderList().size(), 1);
    QCOMPARE(lock.holderList().first().count, qint64(2));

    // Read lock with two readers, and each reader's lease key next to it.
    for (const QByteArray& reader : {field, otherField}) {
        QVERIFY(!server.command({"HSET", "catalog", "mode", "read"}).isError());
        QCOMPARE(server.command({"HINCRBY", "catalog", reader, "1"}).integer, 1);
        const QByteArray lease = "{catalog}:" + reader + ":rwlock_timeout:1";
        QVERIFY(server.command({"SET", lease, "1", "PX", "30000"}).isStatus());
        QCOMPARE(server.command({"PEXPIRE", "catalog", "30000"}).integer, 1);
        const RecognizedLock leaseLock = recognizeKey(server, lease);
        QVERIFY(leaseLock.auxiliary);
        QCOMPARE(leaseLock.format, LockFormat::Redisson);
    }
    lock = recognizeKey(server, "catalog");
    QCOMPARE(lock.format, LockFormat::RedissonReadWrite);
    QCOMPARE(lock.detail(), QStringLiteral("read mode"));
    QByteArrayList readers{field, otherField};
    std::sort(readers.begin(), readers.end());
    QCOMPARE(lock.token, readers.join(','));
    QCOMPARE(lock.holderList().size(), 2);

    // Write lock: mode write and the writer's "<id>:<thread>:write" field.
    const QByteArray writer = field + ":write";
    QVERIFY(!server.command({"HSET", "prices", "mode", "write"}).isError());
    QVERIFY(!server.command({"HSET", "prices", writer, "1"}).isError());
    QCOMPARE(server.command({"PEXPIRE", "prices", "30000"}).integer, 1);
    lock = recognizeKey(server, "prices");
    QCOMPARE(lock.format, LockFormat::RedissonReadWrite);
    QCOMPARE(lock.token, writer);
    QCOMPARE(lock.owner,
             QStringLiteral("thread 57 of ") + QString::fromLatin1(instance) + QStringLiteral(" (write)"));

    // Fair lock waiters and the fenced lock's counter are helpers, never locks of their own.
    QCOMPARE(server.command({"RPUSH", "redisson_lock_queue:{fair}", otherField}).integer, 1);
    QCOMPARE(server
                 .command({"ZADD", "redisson_lock_timeout:{fair}", QByteArray::number(nowMs() + 30000),
                           otherField})
                 .integer,
             1);
    QCOMPARE(server.command({"INCR", "redisson_lock_token:{fenced}"}).integer, 1);
    for (const QByteArray& key :
         {QByteArray("redisson_lock_queue:{fair}"), QByteArray("redisson_lock_timeout:{fair}"),
          QByteArray("redisson_lock_token:{fenced}")}) {
        const RecognizedLock helper = recognizeKey(server, key);
        QVERIFY2(helper.auxiliary, key.constData());
        QCOMPARE(helper.format, LockFormat::Redisson);
        QVERIFY(helper.holderList().isEmpty());
    }
}

void TestFormatShapes::pythonRedisLockShapes()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    // python-redis-lock's id: b64encode(urandom(18)), 24 characters without padding.
    QByteArray random(18, '\0');
    for (char& c : random)
        c = char(QRandomGenerator::system()->bounded(256));
    const QByteArray id = random.toBase64();
    QCOMPARE(id.size(), 24);

    QVERIFY(server.command({"SET", "lock:report", id, "NX", "EX", "60"}).isStatus());
    KeyObservation seen;
    RecognizedLock lock = recognizeKey(server, "lock:report", &seen);
    QCOMPARE(lock.format, LockFormat::PythonRedisLock);
    QCOMPARE(lock.token, id);
    QVERIFY(seen.pttlMs > 0 && seen.pttlMs <= 60000);
    // A second acquirer's SET NX fails and leaves the holder in place.
    QVERIFY(server.command({"SET", "lock:report", "AAAAAAAAAAAAAAAAAAAAAAAA", "NX", "EX", "60"}).isNil());
    QCOMPARE(recognizeKey(server, "lock:report").token, id);

    // Its default is no expiry at all.
    QVERIFY(server.command({"SET", "lock:nightly", id, "NX"}).isStatus());
    lock = recognizeKey(server, "lock:nightly", &seen);
    QCOMPARE(lock.format, LockFormat::PythonRedisLock);
    QCOMPARE(seen.pttlMs, qint64(-1));

    // Release: DEL the lock, wake one waiter through the signal list, which expires in 1 s.
    QCOMPARE(server.command({"DEL", "lock:report"}).integer, 1);
    QCOMPARE(server.command({"LPUSH", "lock-signal:report", "1"}).integer, 1);
    QCOMPARE(server.command({"PEXPIRE", "lock-signal:report", "1000"}).integer, 1);
    QCOMPARE(recognizeKey(server, "lock:report"), RecognizedLock());
    const RecognizedLock signal = recognizeKey(server, "lock-signal:report");
    QVERIFY(signal.auxiliary);
    QCOMPARE(signal.format, LockFormat::PythonRedisLock);
}

void TestFormatShapes::legacyTimestampShapes()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const qint64 nowSeconds = nowMs() / 1000;

    // SETNX with the expiry time as the value, no Redis TTL.
    const QByteArray live = QByteArray::number(nowSeconds + 30);
    QCOMPARE(server.command({"SETNX", "jobs.lock", live}).integer, 1);
    KeyObservation seen;
    RecognizedLock lock = recognizeKey(server, "jobs.lock", &seen);
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QCOMPARE(lock.token, live);
    QCOMPARE(lock.expiresAtMs(), (nowSeconds + 30) * 1000);
    QVERIFY(!lock.expiredByTimestamp);
    QCOMPARE(seen.pttlMs, qint64(-1));

    // A crashed holder's key stays forever; only the timestamp says it is dead ...
    const QByteArray dead = QByteArray::number(nowSeconds - 60);
    QCOMPARE(server.command({"SETNX", "stale.lock", dead}).integer, 1);
    QCOMPARE(server.command({"SETNX", "stale.lock", live}).integer, 0);
    lock = recognizeKey(server, "stale.lock");
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QVERIFY(lock.expiredByTimestamp);
    QCOMPARE(lock.expiresAtMs(), (nowSeconds - 60) * 1000);

    // ... until the next client sees that and steals it with GETSET.
    QCOMPARE(server.command({"GETSET", "stale.lock", live}).string, dead);
    lock = recognizeKey(server, "stale.lock");
    QVERIFY(!lock.expiredByTimestamp);
    QCOMPARE(lock.token, live);

    // Variants seen in the wild: milliseconds, and Python's str(time.time() + timeout).
    const qint64 liveMs = nowMs() + 30000;
    QCOMPARE(server.command({"SETNX", "ms.lock", QByteArray::number(liveMs)}).integer, 1);
    lock = recognizeKey(server, "ms.lock");
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QCOMPARE(lock.expiresAtMs(), liveMs);
    const QByteArray fractional = QByteArray::number(double(nowSeconds - 5) + 0.25, 'f', 6);
    QCOMPARE(server.command({"SETNX", "py.lock", fractional}).integer, 1);
    lock = recognizeKey(server, "py.lock");
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QCOMPARE(lock.expiresAtMs(), (nowSeconds - 5) * 1000 + 250);
    QVERIFY(lock.expiredByTimestamp);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestFormatShapes)

} // namespace tst_formatshapes

#include "tst_formatshapes.moc"
