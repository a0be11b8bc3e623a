// SPDX-License-Identifier: Apache-2.0
#include "config/configloader.h"
#include "config/keyglob.h"
#include "config/patternscope.h"
#include "discovery/scanplan.h"
#include "formats/lockformatrecognizer.h"
#include "monitor/quorumcalculator.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_scanpattern {

using namespace lockscope;

namespace {

constexpr qint64 kNowWallMs = 1750000000000LL;

KeyObservation stringKey(const QByteArray& value, qint64 pttlMs)
{
    KeyObservation o;
    o.present = true;
    o.type = "string";
    o.value = value;
    o.valueSize = value.size();
    o.pttlMs = pttlMs;
    o.readAtMs = 1000;
    return o;
}

// What the monitor does with one key read on a single master: shown (with its status) or not.
std::optional<LockStatus> statusUnder(const QList<ScanPattern>& patterns, const QByteArray& key,
                                      const KeyObservation& read)
{
    const RecognizedLock lock = LockFormatRecognizer::recognize(key, read, {}, kNowWallMs);
    if (!PatternScope(patterns).isLock(key, lock, read.pttlMs >= 0))
        return std::nullopt;
    return QuorumCalculator::compute(key, {MasterObservation(read, lock)}, RedlockSettings(), 1000).status;
}

KeyObservation typedKey(const QByteArray& type, qint64 pttlMs)
{
    KeyObservation o = stringKey({}, pttlMs);
    o.type = type;
    o.valueSize = 0;
    return o;
}

} // namespace

class TestScanPattern : public QObject
{
    Q_OBJECT

private slots:
    void unrecognisedKeyWithoutTtlUnderEachMode();
    void discoverShowsOnlyLockShapes_data();
    void discoverShowsOnlyLockShapes();
    void theDefaultsListLocksAndNoOrdinaryKeys();
    void redisGlobs_data();
    void redisGlobs();
    void configModes();
    void configModeErrors_data();
    void configModeErrors();
};

void TestScanPattern::unrecognisedKeyWithoutTtlUnderEachMode()
{
    const KeyObservation ordinary = stringKey("name-7", -1);
    // "Every key here is a lock": an unrecognised value without a TTL is a lock that never expires.
    QCOMPARE(statusUnder({ScanPattern("user:*", PatternMode::Locks)}, "user:7", ordinary),
             std::optional<LockStatus>(LockStatus::Stuck));
    // The default patterns keep that meaning where they name a lock layout.
    QCOMPARE(statusUnder(MonitorSettings().patterns, "jobs.lock", ordinary),
             std::optional<LockStatus>(LockStatus::Stuck));
    // "Find locks among these keys": it is not a lock at all, so it is not stuck, and not shown.
    QCOMPARE(statusUnder({ScanPattern("*", PatternMode::Discover)}, "user:7", ordinary), std::nullopt);
    // A key that a locks pattern names stays a lock when a discover pattern matches it too.
    const QList<ScanPattern> both{ScanPattern("*", PatternMode::Discover),
                                  ScanPattern("legacy:*", PatternMode::Locks)};
    QCOMPARE(statusUnder(both, "legacy:jobs", ordinary), std::optional<LockStatus>(LockStatus::Stuck));
    QCOMPARE(statusUnder(both, "user:7", ordinary), std::nullopt);
    // A real lock under the discover pattern is shown as what it is.
    QCOMPARE(statusUnder(both, "orders", stringKey("9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c", 30000)),
             std::optional<LockStatus>(LockStatus::Held));
}

void TestScanPattern::discoverShowsOnlyLockShapes_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<qint64>("pttl");
    QTest::addColumn<bool>("lock");
    const QByteArray hex = "9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c";
    const QByteArray uuid = "6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b";
    QTest::newRow("plain text with TTL (a cache entry)")
        << QByteArray("cache:1") << QByteArray("hello") << 60000LL << false;
    QTest::newRow("a counter") << QByteArray("hits") << QByteArray("17") << -1LL << false;
    QTest::newRow("a unix time (last seen)")
        << QByteArray("seen:1") << QByteArray("1700000000") << -1LL << false;
    QTest::newRow("32 hex with TTL (node-redlock)") << QByteArray("orders") << hex << 30000LL << true;
    QTest::newRow("32 hex without TTL (a digest)") << QByteArray("digest:1") << hex << -1LL << false;
    QTest::newRow("UUID with TTL (pottery)") << QByteArray("redlock:pay") << uuid << 10000LL << true;
    QTest::newRow("UUID without TTL (an id)") << QByteArray("user:1:id") << uuid << -1LL << false;
    QTest::newRow("lockscope token without TTL")
        << QByteArray("any") << QByteArray("ops@host:1/" + hex) << -1LL << true;
    QTest::newRow("redis-semaphore mutex without TTL") << QByteArray("mutex:pay") << uuid << -1LL << true;
    QTest::newRow("python-redis-lock without TTL")
        << QByteArray("lock:report") << QByteArray("AbCdEfGhIjKlMnOpQrStUvWx") << -1LL << true;
    const QByteArray base64 = "Uq8+0bH/7dK2xVf3LmN9pQ";
    QTest::newRow("22-char base64 with TTL (@redis-kit/lock)")
        << QByteArray("jobs:7") << base64 << 30000LL << true;
    QTest::newRow("22-char base64 without TTL (an id)")
        << QByteArray("user:1:key") << base64 << -1LL << false;
    QTest::newRow("a CamelCase name with TTL (a cache entry)")
        << QByteArray("cache:handler") << QByteArray("ProcessingQueueManager") << 60000LL << false;
}

void TestScanPattern::discoverShowsOnlyLockShapes()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, value);
    QFETCH(qint64, pttl);
    QFETCH(bool, lock);
    const std::optional<LockStatus> status =
        statusUnder({ScanPattern("*", PatternMode::Discover)}, key, stringKey(value, pttl));
    QCOMPARE(status.has_value(), lock);
}

void TestScanPattern::theDefaultsListLocksAndNoOrdinaryKeys()
{
    // Issue #41: under the old default *lock* a `SET clock:drift-config 1` was a stuck lock, raised a
    // notification and was offered for deletion. The defaults name the lock layouts, and find the
    // libraries' locks among other keys only by their shape.
    const QByteArray hex = "9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c";
    const QByteArray uuid = "6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b";
    KeyObservation redisson = typedKey("hash", 30000);
    redisson.fields = {{"8743c9c0-0795-4907-87fd-6c719a6b4586:1", "1"}};
    redisson.elementCount = 1;
    KeyObservation semaphore = typedKey("zset", 10000);
    semaphore.members = {{"holder-a", 1.75e12}};
    semaphore.elementCount = 1;
    KeyObservation signal = typedKey("list", 1000);
    signal.elementCount = 1;
    struct Row
    {
        QByteArray key;
        KeyObservation read;
        std::optional<LockStatus> status; // nullopt: not listed at all
    };
    const std::optional<LockStatus> none;
    const QList<Row> rows{
        {"clock:drift-config", stringKey("1", -1), none},
        {"block:42", stringKey("a-block-of-text", -1), none},
        {"unlocked_users", typedKey("set", -1), none},
        {"clock:session", stringKey(hex, -1), none},
        {"lock-signal:report", signal, none}, // python-redis-lock's helper, not a lock
        {"session:42", stringKey(hex, 30000), none},
        {"lock:nottl", stringKey("worker-7", -1), LockStatus::Stuck},   // a hand-rolled lock
        {"lock.stale", stringKey("1600000000", -1), LockStatus::Stuck}, // SETNX recipe, expired
        {"lock.soon", stringKey("2100000000", -1), LockStatus::Held},
        {"jobs.lock", stringKey("1600000000", -1), LockStatus::Stuck},
        {"orders:lock", stringKey("worker-7", 30000), LockStatus::Held},
        {"locks:inventory:sku-1841", stringKey("worker-7", 30000), LockStatus::Held},
        {"redlock:report", stringKey(uuid, 10000), LockStatus::Held},
        {"mutex:payments", stringKey(uuid, 10000), LockStatus::Held},
        {"semaphore:db-pool", semaphore, LockStatus::Held},
        {"fair_lock", redisson, LockStatus::Held},                                      // Redisson
        {"report-lock", stringKey("q83vEjRWeJq83vEjRWeJqw==", 8000), LockStatus::Held}, // redsync
        {"mylock", stringKey(hex, 30000), LockStatus::Held},                            // node-redlock
        {"mylock-digest", stringKey(hex, -1), none},
    };
    const QList<ScanPattern> defaults = ScanPattern::defaults();
    QCOMPARE(MonitorSettings().patterns, defaults);
    const ScanPlan plan(defaults);
    for (const Row& row : rows) {
        const std::optional<LockStatus> status =
            plan.keeps(row.key) ? statusUnder(defaults, row.key, row.read) : std::nullopt;
        QVERIFY2(
            status == row.status,
            qPrintable(QStringLiteral("%1: %2, expected %3")
                           .arg(QString::fromLatin1(row.key),
                                status ? lockStatusName(*status) : QStringLiteral("not listed"),
                                row.status ? lockStatusName(*row.status) : QStringLiteral("not listed"))));
    }
}

void TestScanPattern::redisGlobs_data()
{
    QTest::addColumn<QByteArray>("glob");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<bool>("matches");
    QTest::newRow("star") << QByteArray("*") << QByteArray("anything") << true;
    QTest::newRow("prefix") << QByteArray("lock:*") << QByteArray("lock:a") << true;
    QTest::newRow("prefix, other") << QByteArray("lock:*") << QByteArray("mutex:a") << false;
    QTest::newRow("infix") << QByteArray("*lock*") << QByteArray("jobs.lock") << true;
    QTest::newRow("case sensitive") << QByteArray("*lock*") << QByteArray("JOBS.LOCK") << false;
    QTest::newRow("question mark") << QByteArray("job?") << QByteArray("job7") << true;
    QTest::newRow("question mark needs one") << QByteArray("job?") << QByteArray("job") << false;
    QTest::newRow("class") << QByteArray("job[0-9]") << QByteArray("job5") << true;
    QTest::newRow("negated class") << QByteArray("job[^0-9]") << QByteArray("job5") << false;
    QTest::newRow("escaped star") << QByteArray("a\\*") << QByteArray("a*") << true;
    QTest::newRow("escaped star is literal") << QByteArray("a\\*") << QByteArray("ab") << false;
    QTest::newRow("binary key") << QByteArray("k*") << QByteArray("k\x00\xff", 3) << true;
    QTest::newRow("empty key") << QByteArray("*") << QByteArray() << true;
}

void TestScanPattern::redisGlobs()
{
    QFETCH(QByteArray, glob);
    QFETCH(QByteArray, key);
    QFETCH(bool, matches);
    QCOMPARE(KeyGlob::matches(glob, key), matches);
}

void TestScanPattern::configModes()
{
    const Result<LockScopeConfig> c = ConfigLoader::fromJson(
        R"({"patterns": ["jobs.lock", {"match": "lock:*", "mode": "locks"}, {"match": "*", "mode": "discover"},
                         {"match": "mutex:*"}, {"match": "fence:*", "mode": "fencing"}]})");
    QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
    QCOMPARE(c->monitor.patterns, (QList<ScanPattern>{ScanPattern("jobs.lock", PatternMode::Locks),
                                                      ScanPattern("lock:*", PatternMode::Locks),
                                                      ScanPattern("*", PatternMode::Discover),
                                                      ScanPattern("mutex:*", PatternMode::Locks),
                                                      ScanPattern("fence:*", PatternMode::Fencing)}));
    QCOMPARE(ScanPattern::listText(c->monitor.patterns),
             QStringLiteral("jobs.lock, lock:*, * (discover), mutex:*, fence:* (fencing)"));
    // A fencing counter is never a lock, whichever other pattern meets it (here "*" and "lock:*").
    const PatternScope scope(c->monitor.patterns);
    QVERIFY(scope.isFencingCounter("fence:orders"));
    QVERIFY(!scope.isLock("fence:orders", RecognizedLock(), false));
    QVERIFY(scope.isLock("lock:orders", RecognizedLock(), false));
    // Without "patterns" the defaults: the lock layouts, every key there a lock, and *lock* to
    // discover (issue #41).
    const Result<LockScopeConfig> defaults = ConfigLoader::fromJson("{}");
    QVERIFY(defaults.ok());
    QCOMPARE(defaults->monitor.patterns, ScanPattern::defaults());
    for (const ScanPattern& p : defaults->monitor.patterns)
        QCOMPARE(p.mode, p.match == "*lock*" ? PatternMode::Discover : PatternMode::Locks);
}

void TestScanPattern::configModeErrors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("field");
    QTest::newRow("unknown mode") << QByteArray(R"({"patterns": [{"match": "*", "mode": "find"}]})")
                                  << "\"patterns[0].mode\"";
    QTest::newRow("no match") << QByteArray(R"({"patterns": [{"mode": "discover"}]})")
                              << "\"patterns[0].match\"";
    QTest::newRow("match not a string")
        << QByteArray(R"({"patterns": [{"match": 1}]})") << "\"patterns[0].match\"";
    QTest::newRow("a number") << QByteArray(R"({"patterns": [3]})") << "\"patterns[0]\"";
}

void TestScanPattern::configModeErrors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, field);
    const Result<LockScopeConfig> c = ConfigLoader::fromJson(json);
    QVERIFY(!c.ok());
    QVERIFY2(c.error().message.contains(field), qPrintable(c.error().message));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestScanPattern)

} // namespace tst_scanpattern

#include "tst_scanpattern.moc"
