#include "formats/lockformatrecognizer.h"
#include "support/redisserver.h"
#include "support/testpaths.h"
#include "support/testregistry.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTest>
#include <QUuid>

#include <algorithm>
#include <memory>
#include <vector>

namespace tst_formatinterop {

using namespace lockscope;
using namespace lockscope::test;

namespace {

const QString kInteropDir = sourcePath(QStringLiteral("tests/interop"));
const QString kPython = QStringLiteral("/usr/bin/python3");
constexpr int kWriterTimeoutMs = 30000;

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

bool hasNodeModules()
{
    return QFileInfo::exists(kInteropDir + QStringLiteral("/node_modules/redlock/package.json")) &&
           QFileInfo::exists(kInteropDir + QStringLiteral("/node_modules/redis-semaphore/package.json")) &&
           QFileInfo::exists(kInteropDir + QStringLiteral("/node_modules/ioredis/package.json"));
}

// The first JSON object among a writer's output lines.
QJsonObject firstJsonLine(const QByteArray& output)
{
    for (const QByteArray& line : output.split('\n')) {
        const QJsonDocument doc = QJsonDocument::fromJson(line.trimmed());
        if (doc.isObject())
            return doc.object();
    }
    return {};
}

// Runs a writer to its end. On failure `error` says why, with the writer's own stderr.
QJsonObject runWriter(const QString& program, const QStringList& args, QString& error)
{
    QProcess process;
    process.setProcessEnvironment(testPasswordEnvironment()); // the URLs leave the password out
    process.setWorkingDirectory(kInteropDir);
    process.start(program, args);
    if (!process.waitForStarted(int(lockscope::test::upperBoundMs(5000)))) {
        error = program + QStringLiteral(" did not start: ") + process.errorString();
        return {};
    }
    if (!process.waitForFinished(kWriterTimeoutMs)) {
        process.kill();
        process.waitForFinished(int(lockscope::test::upperBoundMs(5000)));
        error = program + QStringLiteral(" did not finish in %1 ms").arg(kWriterTimeoutMs);
        return {};
    }
    const QString stderrText = QString::fromUtf8(process.readAllStandardError());
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        error = QStringLiteral("%1 %2 exited with %3: %4")
                    .arg(program, args.join(QLatin1Char(' ')))
                    .arg(process.exitCode())
                    .arg(stderrText);
        return {};
    }
    const QJsonObject json = firstJsonLine(process.readAllStandardOutput());
    if (json.isEmpty())
        error = program + QStringLiteral(" printed no JSON line; stderr: ") + stderrText;
    return json;
}

QByteArray jsonBytes(const QJsonObject& json, const QString& name)
{
    return json.value(name).toString().toUtf8();
}

// Reads a key the way a monitor would, command by command through the fixture.
KeyObservation observe(const RedisServer& server, const QByteArray& key)
{
    KeyObservation o;
    o.type = server.command({"TYPE", key}).string;
    o.present = !o.type.isEmpty() && o.type != "none";
    if (!o.present) {
        o.type.clear();
        return o;
    }
    if (o.type == "string") {
        o.value = server.command({"GET", key}).string;
        o.valueSize = server.command({"STRLEN", key}).integer;
    } else if (o.type == "hash") {
        const RedisReply all = server.command({"HGETALL", key});
        for (qsizetype i = 0; i + 1 < all.elements.size(); i += 2)
            o.fields.append({all.elements[i].string, all.elements[i + 1].string});
        o.elementCount = server.command({"HLEN", key}).integer;
    } else if (o.type == "zset") {
        const RedisReply all = server.command({"ZRANGE", key, "0", "-1", "WITHSCORES"});
        for (qsizetype i = 0; i + 1 < all.elements.size(); i += 2)
            o.members.append({all.elements[i].string, all.elements[i + 1].string.toDouble()});
        o.elementCount = server.command({"ZCARD", key}).integer;
    } else if (o.type == "list") {
        o.elementCount = server.command({"LLEN", key}).integer;
    }
    o.pttlMs = server.command({"PTTL", key}).integer;
    return o;
}

RecognizedLock recognize(const RedisServer& server, const QByteArray& key, KeyObservation* seen = nullptr)
{
    const KeyObservation o = observe(server, key);
    if (seen)
        *seen = o;
    return LockFormatRecognizer::recognize(key, o, {}, nowMs());
}

bool startServers(std::vector<std::unique_ptr<RedisServer>>& servers, int count, QString& error)
{
    for (int i = 0; i < count; ++i) {
        servers.push_back(std::make_unique<RedisServer>());
        if (!servers.back()->start()) {
            error = servers.back()->errorString();
            return false;
        }
    }
    return true;
}

QStringList urlsOf(const std::vector<std::unique_ptr<RedisServer>>& servers)
{
    QStringList urls;
    for (const auto& s : servers)
        urls << s->url(false);
    return urls;
}

// node-redlock's token is 16 random bytes; one in about 2,500 is also a well-formed, plausible
// uuid1, and no reader could tell it from redis-py's. Anything else must read as a hex token.
bool isHexTokenOrIndistinguishableUuid1(const RecognizedLock& lock)
{
    return lock.format == LockFormat::HexToken ||
           (lock.format == LockFormat::RedisPy && lock.token.size() == 32 && lock.token[12] == '1');
}

QByteArray redissonThreadField(const QByteArray& instance, int thread)
{
    return instance + ':' + QByteArray::number(thread);
}

} // namespace

#define REQUIRE_NODE()                                                                                       \
    do {                                                                                                     \
        if (!hasNodeModules())                                                                               \
            QSKIP("tests/interop/node_modules is missing: run 'npm ci' in tests/interop to install the "     \
                  "pinned "                                                                                  \
                  "lock libraries");                                                                         \
        QVERIFY2(!m_node.isEmpty(), "node is not on PATH, but tests/interop/node_modules is installed");     \
    } while (false)

class TestFormatInterop : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void nodeRedlockOnOneMaster();
    void nodeRedlockOnThreeMasters();
    void nodeRedlockHeldThenReleased();
    void semaphoreMutexOnOneMaster();
    void redlockMutexOnThreeMasters();
    void semaphoreWithTwoHolders();
    void multiSemaphoreOnThreeMasters();
    void redisPyLock_data();
    void redisPyLock();
    void redissonShapes();
    void pythonRedisLockShapes();
    void legacyTimestampShapes();
    void legacySetnxLibrary();

private:
    QJsonObject runNode(const QStringList& args, QString& error);
    QString m_node;
    QString m_writeLocks;
};

void TestFormatInterop::initTestCase()
{
    m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
    m_writeLocks = kInteropDir + QStringLiteral("/write-locks.js");
    QVERIFY2(QFileInfo::exists(m_writeLocks), qPrintable(m_writeLocks + QStringLiteral(" is missing")));
}

QJsonObject TestFormatInterop::runNode(const QStringList& args, QString& error)
{
    return runWriter(m_node, QStringList{m_writeLocks} + args, error);
}

void TestFormatInterop::nodeRedlockOnOneMaster()
{
    REQUIRE_NODE();
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QString error;
    const QJsonObject written = runNode(
        {QStringLiteral("redlock"), QStringLiteral("invoice:7"), QStringLiteral("30000"), server.url(false)},
        error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(jsonBytes(written, QStringLiteral("key")), QByteArray("invoice:7"));
    const QByteArray value = jsonBytes(written, QStringLiteral("value"));
    QCOMPARE(value.size(), 32);

    KeyObservation seen;
    const RecognizedLock lock = recognize(server, "invoice:7", &seen);
    QVERIFY2(isHexTokenOrIndistinguishableUuid1(lock), qPrintable(lockFormatName(lock.format)));
    QCOMPARE(lock.token, value);
    QCOMPARE(lock.holderList().size(), 1);
    QCOMPARE(lock.holderList().first().id, value);
    QVERIFY(!lock.auxiliary);
    QVERIFY2(seen.pttlMs > 0 && seen.pttlMs <= 30000, qPrintable(QString::number(seen.pttlMs)));
}

void TestFormatInterop::nodeRedlockOnThreeMasters()
{
    REQUIRE_NODE();
    std::vector<std::unique_ptr<RedisServer>> servers;
    QString error;
    QVERIFY2(startServers(servers, 3, error), qPrintable(error));
    const QJsonObject written =
        runNode(QStringList{QStringLiteral("redlock"), QStringLiteral("report"), QStringLiteral("30000")} +
                    urlsOf(servers),
                error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(written.value(QStringLiteral("masters")).toInt(), 3);
    QCOMPARE(written.value(QStringLiteral("lockedOn")).toInt(), 3);
    const QByteArray value = jsonBytes(written, QStringLiteral("value"));
    // The same acquisition gives the same token on every master: what the quorum compares.
    for (const auto& server : servers) {
        const RecognizedLock lock = recognize(*server, "report");
        QVERIFY2(isHexTokenOrIndistinguishableUuid1(lock), qPrintable(lockFormatName(lock.format)));
        QCOMPARE(lock.token, value);
    }
}

void TestFormatInterop::nodeRedlockHeldThenReleased()
{
    REQUIRE_NODE();
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QProcess writer;
    writer.setProcessEnvironment(testPasswordEnvironment());
    writer.setWorkingDirectory(kInteropDir);
    writer.start(m_node, {m_writeLocks, QStringLiteral("hold-redlock"), QStringLiteral("held"),
                          QStringLiteral("20000"), QStringLiteral("3000"), server.url(false)});
    QVERIFY2(writer.waitForStarted(int(lockscope::test::upperBoundMs(5000))),
             qPrintable(writer.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(writer.canReadLine() || writer.state() == QProcess::NotRunning, 15000);
    const QJsonObject written = firstJsonLine(writer.readLine());
    QVERIFY2(!written.isEmpty(), writer.readAllStandardError().constData());
    const QByteArray value = jsonBytes(written, QStringLiteral("value"));

    // Still held while the writer runs ...
    const RecognizedLock held = recognize(server, "held");
    QVERIFY2(isHexTokenOrIndistinguishableUuid1(held), qPrintable(lockFormatName(held.format)));
    QCOMPARE(held.token, value);
    QVERIFY(writer.state() != QProcess::NotRunning);

    // ... and gone when it ends, long before its 20 s TTL: released, not expired.
    QTRY_VERIFY_WITH_TIMEOUT(writer.state() == QProcess::NotRunning, 15000);
    QCOMPARE(writer.exitCode(), 0);
    QVERIFY(!observe(server, "held").present);
    QCOMPARE(recognize(server, "held"), RecognizedLock());
}

void TestFormatInterop::semaphoreMutexOnOneMaster()
{
    REQUIRE_NODE();
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QString error;
    const QJsonObject written = runNode({QStringLiteral("semaphore-mutex"), QStringLiteral("payments"),
                                         QStringLiteral("30000"), server.url(false)},
                                        error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QByteArray key = jsonBytes(written, QStringLiteral("key"));
    QCOMPARE(key, QByteArray("mutex:payments"));
    const QByteArray token = jsonBytes(written, QStringLiteral("token"));

    KeyObservation seen;
    const RecognizedLock lock = recognize(server, key, &seen);
    QCOMPARE(lock.format, LockFormat::SemaphoreMutex);
    QCOMPARE(lock.token, token);
    QCOMPARE(lock.holderList().size(), 1);
    QVERIFY(seen.pttlMs > 0 && seen.pttlMs <= 30000);
    // The same value outside mutex: is only a UUID.
    QVERIFY(server.command({"SET", "payments-copy", token}).isStatus());
    QCOMPARE(recognize(server, "payments-copy").format, LockFormat::UuidToken);
}

void TestFormatInterop::redlockMutexOnThreeMasters()
{
    REQUIRE_NODE();
    std::vector<std::unique_ptr<RedisServer>> servers;
    QString error;
    QVERIFY2(startServers(servers, 3, error), qPrintable(error));
    const QJsonObject written = runNode(
        QStringList{QStringLiteral("semaphore-mutex"), QStringLiteral("ledger"), QStringLiteral("30000")} +
            urlsOf(servers),
        error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QByteArray token = jsonBytes(written, QStringLiteral("token"));
    int holding = 0;
    for (const auto& server : servers) {
        const RecognizedLock lock = recognize(*server, "mutex:ledger");
        if (lock.format == LockFormat::SemaphoreMutex && lock.token == token)
            ++holding;
    }
    // RedlockMutex succeeds on a quorum; with every master up that is all of them.
    QCOMPARE(holding, 3);
}

void TestFormatInterop::semaphoreWithTwoHolders()
{
    REQUIRE_NODE();
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const qint64 before = nowMs();
    const QStringList args{QStringLiteral("semaphore"), QStringLiteral("pool"), QStringLiteral("30000"),
                           server.url(false)};
    QString error;
    const QJsonObject first = runNode(args, error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QJsonObject second = runNode(args, error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const qint64 after = nowMs();
    QCOMPARE(jsonBytes(first, QStringLiteral("key")), QByteArray("semaphore:pool"));
    QByteArrayList ids{jsonBytes(first, QStringLiteral("token")), jsonBytes(second, QStringLiteral("token"))};
    std::sort(ids.begin(), ids.end());

    const RecognizedLock lock = recognize(server, "semaphore:pool");
    QCOMPARE(lock.format, LockFormat::Semaphore);
    QCOMPARE(lock.token, ids.join(','));
    QCOMPARE(lock.holderList().size(), 2);
    for (qsizetype i = 0; i < 2; ++i) {
        QCOMPARE(lock.holderList()[i].id, ids[i]);
        QCOMPARE(lock.holderList()[i].count, qint64(1));
        // The score is the writer's Date.now() at acquisition.
        QVERIFY2(lock.holderList()[i].sinceMs >= before - 1000 &&
                     lock.holderList()[i].sinceMs <= after + 1000,
                 qPrintable(QString::number(lock.holderList()[i].sinceMs)));
    }
}

void TestFormatInterop::multiSemaphoreOnThreeMasters()
{
    REQUIRE_NODE();
    std::vector<std::unique_ptr<RedisServer>> servers;
    QString error;
    QVERIFY2(startServers(servers, 3, error), qPrintable(error));
    const QJsonObject written = runNode(
        QStringList{QStringLiteral("multi-semaphore"), QStringLiteral("workers"), QStringLiteral("30000")} +
            urlsOf(servers),
        error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QByteArray token = jsonBytes(written, QStringLiteral("token"));
    const int permits = written.value(QStringLiteral("permits")).toInt();
    QVERIFY(permits > 1);
    for (const auto& server : servers) {
        KeyObservation seen;
        const RecognizedLock lock = recognize(*server, "semaphore:workers", &seen);
        QCOMPARE(seen.members.size(), permits); // one member "<id>_<i>" per permit ...
        QCOMPARE(lock.format, LockFormat::Semaphore);
        QCOMPARE(lock.token, token); // ... grouped back into one holder
        QCOMPARE(lock.holderList().size(), 1);
        QCOMPARE(lock.holderList().first().count, qint64(permits));
    }
}

void TestFormatInterop::redisPyLock_data()
{
    QTest::addColumn<QString>("timeout");
    QTest::addColumn<qint64>("maxTtlMs");
    QTest::newRow("with a 30 s timeout") << QStringLiteral("30") << qint64(30000);
    QTest::newRow("without a timeout, redis-py's default") << QStringLiteral("none") << qint64(-1);
}

void TestFormatInterop::redisPyLock()
{
    QFETCH(QString, timeout);
    QFETCH(qint64, maxTtlMs);
    QVERIFY2(QFileInfo::exists(kPython), "Debian's /usr/bin/python3 (with python3-redis) is required");
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QString error;
    const QJsonObject written = runWriter(kPython,
                                          {kInteropDir + QStringLiteral("/write_redispy_lock.py"),
                                           QStringLiteral("nightly-export"), timeout, server.url(false)},
                                          error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QByteArray token = jsonBytes(written, QStringLiteral("token"));
    QCOMPARE(written.value(QStringLiteral("uuidVersion")).toInt(), 1);

    KeyObservation seen;
    const RecognizedLock lock = recognize(server, "nightly-export", &seen);
    QCOMPARE(lock.format, LockFormat::RedisPy);
    QCOMPARE(lock.token, token);
    // Python's own uuid module decoded the same token: node and creation time must agree.
    const QString node = written.value(QStringLiteral("node")).toString();
    const qint64 madeAtMs = qint64(written.value(QStringLiteral("madeAtMs")).toDouble());
    QCOMPARE(lock.owner, QStringLiteral("host ") + node);
    QCOMPARE(lock.holderList().size(), 1);
    QCOMPARE(lock.holderList().first().sinceMs, madeAtMs);
    QCOMPARE(lock.detail(), QStringLiteral("uuid1 made %1 UTC on node %2")
                                .arg(QDateTime::fromMSecsSinceEpoch(madeAtMs, Qt::UTC)
                                         .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                                     node));
    QVERIFY2(qAbs(madeAtMs - nowMs()) < 60000, "the uuid1 was made on this machine a moment ago");
    if (maxTtlMs < 0)
        QCOMPARE(seen.pttlMs, qint64(-1));
    else
        QVERIFY2(seen.pttlMs > 0 && seen.pttlMs <= maxTtlMs, qPrintable(QString::number(seen.pttlMs)));
}

void TestFormatInterop::redissonShapes()
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
    RecognizedLock lock = recognize(server, "orders");
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
        const RecognizedLock leaseLock = recognize(server, lease);
        QVERIFY(leaseLock.auxiliary);
        QCOMPARE(leaseLock.format, LockFormat::Redisson);
    }
    lock = recognize(server, "catalog");
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
    lock = recognize(server, "prices");
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
        const RecognizedLock helper = recognize(server, key);
        QVERIFY2(helper.auxiliary, key.constData());
        QCOMPARE(helper.format, LockFormat::Redisson);
        QVERIFY(helper.holderList().isEmpty());
    }
}

void TestFormatInterop::pythonRedisLockShapes()
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
    RecognizedLock lock = recognize(server, "lock:report", &seen);
    QCOMPARE(lock.format, LockFormat::PythonRedisLock);
    QCOMPARE(lock.token, id);
    QVERIFY(seen.pttlMs > 0 && seen.pttlMs <= 60000);
    // A second acquirer's SET NX fails and leaves the holder in place.
    QVERIFY(server.command({"SET", "lock:report", "AAAAAAAAAAAAAAAAAAAAAAAA", "NX", "EX", "60"}).isNil());
    QCOMPARE(recognize(server, "lock:report").token, id);

    // Its default is no expiry at all.
    QVERIFY(server.command({"SET", "lock:nightly", id, "NX"}).isStatus());
    lock = recognize(server, "lock:nightly", &seen);
    QCOMPARE(lock.format, LockFormat::PythonRedisLock);
    QCOMPARE(seen.pttlMs, qint64(-1));

    // Release: DEL the lock, wake one waiter through the signal list, which expires in 1 s.
    QCOMPARE(server.command({"DEL", "lock:report"}).integer, 1);
    QCOMPARE(server.command({"LPUSH", "lock-signal:report", "1"}).integer, 1);
    QCOMPARE(server.command({"PEXPIRE", "lock-signal:report", "1000"}).integer, 1);
    QCOMPARE(recognize(server, "lock:report"), RecognizedLock());
    const RecognizedLock signal = recognize(server, "lock-signal:report");
    QVERIFY(signal.auxiliary);
    QCOMPARE(signal.format, LockFormat::PythonRedisLock);
}

void TestFormatInterop::legacyTimestampShapes()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const qint64 nowSeconds = nowMs() / 1000;

    // SETNX with the expiry time as the value, no Redis TTL.
    const QByteArray live = QByteArray::number(nowSeconds + 30);
    QCOMPARE(server.command({"SETNX", "jobs.lock", live}).integer, 1);
    KeyObservation seen;
    RecognizedLock lock = recognize(server, "jobs.lock", &seen);
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QCOMPARE(lock.token, live);
    QCOMPARE(lock.expiresAtMs(), (nowSeconds + 30) * 1000);
    QVERIFY(!lock.expiredByTimestamp);
    QCOMPARE(seen.pttlMs, qint64(-1));

    // A crashed holder's key stays forever; only the timestamp says it is dead ...
    const QByteArray dead = QByteArray::number(nowSeconds - 60);
    QCOMPARE(server.command({"SETNX", "stale.lock", dead}).integer, 1);
    QCOMPARE(server.command({"SETNX", "stale.lock", live}).integer, 0);
    lock = recognize(server, "stale.lock");
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QVERIFY(lock.expiredByTimestamp);
    QCOMPARE(lock.expiresAtMs(), (nowSeconds - 60) * 1000);

    // ... until the next client sees that and steals it with GETSET.
    QCOMPARE(server.command({"GETSET", "stale.lock", live}).string, dead);
    lock = recognize(server, "stale.lock");
    QVERIFY(!lock.expiredByTimestamp);
    QCOMPARE(lock.token, live);

    // Variants seen in the wild: milliseconds, and Python's str(time.time() + timeout).
    const qint64 liveMs = nowMs() + 30000;
    QCOMPARE(server.command({"SETNX", "ms.lock", QByteArray::number(liveMs)}).integer, 1);
    lock = recognize(server, "ms.lock");
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QCOMPARE(lock.expiresAtMs(), liveMs);
    const QByteArray fractional = QByteArray::number(double(nowSeconds - 5) + 0.25, 'f', 6);
    QCOMPARE(server.command({"SETNX", "py.lock", fractional}).integer, 1);
    lock = recognize(server, "py.lock");
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QCOMPARE(lock.expiresAtMs(), (nowSeconds - 5) * 1000 + 250);
    QVERIFY(lock.expiredByTimestamp);
}

void TestFormatInterop::legacySetnxLibrary()
{
    // The real SETNX/GETSET algorithm: errorception's redis-lock 0.0.8 (npm, pinned in tests/interop).
    REQUIRE_NODE();
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QString error;
    const qint64 before = nowMs();
    const QJsonObject written = runNode(
        {QStringLiteral("legacy-setnx"), QStringLiteral("jobs"), QStringLiteral("30000"), server.url(false)},
        error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(jsonBytes(written, QStringLiteral("key")), QByteArray("lock.jobs"));
    const QByteArray value = jsonBytes(written, QStringLiteral("value"));
    KeyObservation seen;
    RecognizedLock lock = recognize(server, "lock.jobs", &seen);
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QCOMPARE(lock.token, value);
    QCOMPARE(seen.pttlMs, qint64(-1)); // no Redis TTL: only the value says when it ends
    QVERIFY2(lock.expiresAtMs() > before + 30000 && lock.expiresAtMs() <= nowMs() + 30001,
             qPrintable(QString::number(lock.expiresAtMs() - before)));
    QVERIFY(!lock.expiredByTimestamp);

    // A crashed holder's lock (its time long past): the library steals it with GETSET, and the
    // recogniser shows the dead one as expired before and the new holder's time after.
    const QByteArray dead = QByteArray::number(nowMs() - 60000);
    QCOMPARE(server.command({"SET", "lock.stale", dead}).string, QByteArray("OK"));
    lock = recognize(server, "lock.stale");
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QVERIFY(lock.expiredByTimestamp);
    const QJsonObject stolen = runNode(
        {QStringLiteral("legacy-setnx"), QStringLiteral("stale"), QStringLiteral("30000"), server.url(false)},
        error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(jsonBytes(stolen, QStringLiteral("before")), dead);
    lock = recognize(server, "lock.stale");
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QCOMPARE(lock.token, jsonBytes(stolen, QStringLiteral("value")));
    QVERIFY(!lock.expiredByTimestamp);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestFormatInterop)

} // namespace tst_formatinterop

#include "tst_formatinterop.moc"
