// SPDX-License-Identifier: Apache-2.0
#include "support/keyrecognition.h"
#include "support/lockctlrun.h"
#include "support/redisserver.h"
#include "support/testpaths.h"
#include "support/testregistry.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

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
           QFileInfo::exists(kInteropDir + QStringLiteral("/node_modules/ioredis/package.json")) &&
           QFileInfo::exists(kInteropDir + QStringLiteral("/node_modules/@redis-kit/lock/package.json"));
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
    void legacySetnxLibrary();
    void redisKitBase64TokensAreDiscovered();

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
    const RecognizedLock lock = recognizeKey(server, "invoice:7", &seen);
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
        const RecognizedLock lock = recognizeKey(*server, "report");
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
    const RecognizedLock held = recognizeKey(server, "held");
    QVERIFY2(isHexTokenOrIndistinguishableUuid1(held), qPrintable(lockFormatName(held.format)));
    QCOMPARE(held.token, value);
    QVERIFY(writer.state() != QProcess::NotRunning);

    // ... and gone when it ends, long before its 20 s TTL: released, not expired.
    QTRY_VERIFY_WITH_TIMEOUT(writer.state() == QProcess::NotRunning, 15000);
    QCOMPARE(writer.exitCode(), 0);
    QVERIFY(!observeKey(server, "held").present);
    QCOMPARE(recognizeKey(server, "held"), RecognizedLock());
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
    const RecognizedLock lock = recognizeKey(server, key, &seen);
    QCOMPARE(lock.format, LockFormat::SemaphoreMutex);
    QCOMPARE(lock.token, token);
    QCOMPARE(lock.holderList().size(), 1);
    QVERIFY(seen.pttlMs > 0 && seen.pttlMs <= 30000);
    // The same value outside mutex: is only a UUID.
    QVERIFY(server.command({"SET", "payments-copy", token}).isStatus());
    QCOMPARE(recognizeKey(server, "payments-copy").format, LockFormat::UuidToken);
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
        const RecognizedLock lock = recognizeKey(*server, "mutex:ledger");
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

    const RecognizedLock lock = recognizeKey(server, "semaphore:pool");
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
        const RecognizedLock lock = recognizeKey(*server, "semaphore:workers", &seen);
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
    const RecognizedLock lock = recognizeKey(server, "nightly-export", &seen);
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
    RecognizedLock lock = recognizeKey(server, "lock.jobs", &seen);
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
    lock = recognizeKey(server, "lock.stale");
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QVERIFY(lock.expiredByTimestamp);
    const QJsonObject stolen = runNode(
        {QStringLiteral("legacy-setnx"), QStringLiteral("stale"), QStringLiteral("30000"), server.url(false)},
        error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(jsonBytes(stolen, QStringLiteral("before")), dead);
    lock = recognizeKey(server, "lock.stale");
    QCOMPARE(lock.format, LockFormat::LegacyTimestamp);
    QCOMPARE(lock.token, jsonBytes(stolen, QStringLiteral("value")));
    QVERIFY(!lock.expiredByTimestamp);
}

// @redis-kit/lock writes 22 characters of base64 (+ and / included, no padding), a shape discovery
// did not know (issue #46): `--discover '*'` missed its locks. Under the rules of every bare random
// token, such a value is a lock when it has a TTL; the same shape without one, and a 22-letter name
// with one, are not (the oracle: what the library says it wrote, and the decoys the test wrote).
void TestFormatInterop::redisKitBase64TokensAreDiscovered()
{
    REQUIRE_NODE();
    std::vector<std::unique_ptr<RedisServer>> servers;
    QString error;
    QVERIFY2(startServers(servers, 3, error), qPrintable(error));
    // The test's own sure cases: both cases and a digit, + or / (about 99 % of the library's draws).
    // A token of letters alone is drawn again, so that the oracle never leans on the finer rule it
    // would be checking.
    auto surelyRandom = [](const QByteArray& t) {
        return std::any_of(t.begin(), t.end(), [](char c) { return c >= 'A' && c <= 'Z'; }) &&
               std::any_of(t.begin(), t.end(), [](char c) { return c >= 'a' && c <= 'z'; }) &&
               std::any_of(t.begin(), t.end(),
                           [](char c) { return (c >= '0' && c <= '9') || c == '+' || c == '/'; });
    };
    QHash<QString, QByteArray> written; // resource -> token, as the library says
    for (const QString& resource :
         {QStringLiteral("jobs:7"), QStringLiteral("report:daily"), QStringLiteral("invoices/2026-12")}) {
        QByteArray token;
        for (int draw = 0; draw < 10 && !surelyRandom(token); ++draw) {
            for (const auto& server : servers)
                server->command({"DEL", resource.toUtf8()});
            const QJsonObject w = runNode(
                QStringList{QStringLiteral("redis-kit"), resource, QStringLiteral("60000")} + urlsOf(servers),
                error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            token = jsonBytes(w, QStringLiteral("value"));
            QCOMPARE(token.size(), 22);
        }
        QVERIFY2(surelyRandom(token), token.constData());
        written.insert(resource, token);
        for (const auto& server : servers) {
            const RecognizedLock lock = recognizeKey(*server, resource.toUtf8());
            QCOMPARE(lock.token, token);
            QCOMPARE(lockFormatName(lock.format), QStringLiteral("base64-token"));
        }
    }
    // Decoys on every master: the shape without a TTL (an id), a name with a TTL (a cache entry).
    for (const auto& server : servers) {
        server->command({"SET", "user:1:key", "Uq8+0bH/7dK2xVf3LmN9pQ"});
        server->command({"SET", "cache:handler", "ProcessingQueueManager", "PX", "60000"});
    }
    QStringList args{QStringLiteral("list"), QStringLiteral("--discover"), QStringLiteral("*")};
    args << testPasswordArgs();
    for (const QString& url : urlsOf(servers))
        args << QStringLiteral("-m") << url;
    int code = -1;
    const QJsonObject doc = runLockctlJson(args, &code);
    QCOMPARE(code, 0);
    QHash<QString, QByteArray> listed;
    for (const QJsonValue& v : doc.value(QStringLiteral("locks")).toArray()) {
        const QJsonObject lock = v.toObject();
        listed.insert(lock.value(QStringLiteral("resource")).toString(),
                      lock.value(QStringLiteral("token")).toString().toUtf8());
        QCOMPARE(lock.value(QStringLiteral("format")).toString(), QStringLiteral("base64-token"));
        QCOMPARE(lock.value(QStringLiteral("quorum")).toObject().value(QStringLiteral("holding")).toInt(), 3);
    }
    QCOMPARE(listed, written);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestFormatInterop)

} // namespace tst_formatinterop

#include "tst_formatinterop.moc"
