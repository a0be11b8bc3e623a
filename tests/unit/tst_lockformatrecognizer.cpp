#include "formats/lockformatrecognizer.h"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>
#include <limits>

using namespace lockscope;

namespace {

// 2025-06-15 15:06:40 UTC: the wall clock every legacy timestamp below is judged against.
constexpr qint64 kNowMs = 1750000000000LL;

const QByteArray kInstanceA = "8f3c2a1e-5b7d-4c9e-a1f2-3b4c5d6e7f80";
const QByteArray kInstanceB = "1b2c3d4e-0000-4abc-9def-0123456789ab";
const QByteArray kUuid4 = "6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b";

// A uuid1 laid out by hand as RFC 4122 describes it: 60-bit count of 100 ns ticks since
// 1582-10-15 split into time_low, time_mid and time_hi (under version nibble 1), then the
// clock sequence under the 10 variant bits, then the 48-bit node.
QByteArray makeUuid1(qint64 unixMs, quint64 node, quint16 clockSeq = 0x1234, quint64 extraTicks = 0)
{
    const quint64 ticks = quint64(unixMs) * 10000 + 0x01B21DD213814000ULL + extraTicks;
    const quint64 timeLow = ticks & 0xFFFFFFFFULL;
    const quint64 timeMid = (ticks >> 32) & 0xFFFF;
    const quint64 timeHigh = ((ticks >> 48) & 0x0FFF) | 0x1000;
    const quint64 clockHigh = 0x80 | ((clockSeq >> 8) & 0x3F);
    const quint64 clockLow = clockSeq & 0xFF;
    return QString::asprintf("%08llx%04llx%04llx%02llx%02llx%012llx", timeLow, timeMid, timeHigh, clockHigh,
                             clockLow, node & 0xFFFFFFFFFFFFULL)
        .toLatin1();
}

QByteArray dashed(const QByteArray& hex)
{
    return hex.mid(0, 8) + '-' + hex.mid(8, 4) + '-' + hex.mid(12, 4) + '-' + hex.mid(16, 4) + '-' +
           hex.mid(20);
}

KeyObservation stringObservation(const QByteArray& value, bool truncated = false, qint64 valueSize = -1)
{
    KeyObservation o;
    o.present = true;
    o.type = "string";
    o.value = value;
    o.truncated = truncated;
    o.valueSize = valueSize < 0 ? value.size() : valueSize;
    o.pttlMs = -1;
    return o;
}

// Alternating field, value.
KeyObservation hashObservation(const QByteArrayList& flat, bool truncated = false, qint64 elementCount = -1)
{
    KeyObservation o;
    o.present = true;
    o.type = "hash";
    for (qsizetype i = 0; i + 1 < flat.size(); i += 2)
        o.fields.append({flat[i], flat[i + 1]});
    o.truncated = truncated;
    o.elementCount = elementCount < 0 ? o.fields.size() : elementCount;
    o.pttlMs = 30000;
    return o;
}

KeyObservation zsetObservation(const QByteArrayList& members, const QList<double>& scores,
                               bool truncated = false, qint64 elementCount = -1)
{
    KeyObservation o;
    o.present = true;
    o.type = "zset";
    for (qsizetype i = 0; i < members.size() && i < scores.size(); ++i)
        o.members.append({members[i], scores[i]});
    o.truncated = truncated;
    o.elementCount = elementCount < 0 ? o.members.size() : elementCount;
    o.pttlMs = 10000;
    return o;
}

QStringList describe(const QList<LockHolder>& holders)
{
    QStringList out;
    for (const LockHolder& h : holders)
        out << QStringLiteral("%1 | %2 | x%3 | %4")
                   .arg(QString::fromUtf8(h.id), h.owner)
                   .arg(h.count)
                   .arg(h.sinceMs);
    return out;
}

QString holder(const QByteArray& id, const QString& owner, qint64 count = 1, qint64 sinceMs = -1)
{
    return QStringLiteral("%1 | %2 | x%3 | %4").arg(QString::fromUtf8(id), owner).arg(count).arg(sinceMs);
}

QString threadOf(const QByteArray& thread, const QByteArray& instance)
{
    return QStringLiteral("thread %1 of %2").arg(QString::fromLatin1(thread), QString::fromLatin1(instance));
}

// "glob<TAB>pattern" per rule.
QList<OwnerRule> rulesFrom(const QStringList& specs)
{
    QList<OwnerRule> rules;
    for (const QString& spec : specs) {
        OwnerRule rule;
        rule.keyGlob = spec.section(QLatin1Char('\t'), 0, 0);
        rule.pattern = QRegularExpression(spec.section(QLatin1Char('\t'), 1));
        rules.append(rule);
    }
    return rules;
}

bool isPlausibleMs(qint64 ms)
{
    return ms >= 946684800000LL && ms < 4102444800000LL;
}

} // namespace

class TestLockFormatRecognizer : public QObject
{
    Q_OBJECT

private slots:
    void recognizesStrings_data();
    void recognizesStrings();
    void decodesUuid1_data();
    void decodesUuid1();
    void recognizesHashes_data();
    void recognizesHashes();
    void recognizesSemaphores_data();
    void recognizesSemaphores();
    void recognizesAuxiliaryKeys_data();
    void recognizesAuxiliaryKeys();
    void appliesOwnerRules_data();
    void appliesOwnerRules();
    void ignoresAbsentAndFailedReads_data();
    void ignoresAbsentAndFailedReads();
    void survivesHugeValues_data();
    void survivesHugeValues();
    void survivesHugeCollections();
    void survivesArbitraryBytes();
};

void TestLockFormatRecognizer::recognizesStrings_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("truncated");
    QTest::addColumn<qint64>("valueSize");
    QTest::addColumn<int>("format");
    QTest::addColumn<QString>("owner");
    QTest::addColumn<QString>("detail");
    QTest::addColumn<qint64>("expiresAtMs");
    QTest::addColumn<bool>("expired");
    QTest::addColumn<qint64>("sinceMs");

    const qint64 whole = -1;
    auto row = [&](const char* name, const QByteArray& key, const QByteArray& value, LockFormat format,
                   const QString& owner = {}, const QString& detail = {}, qint64 expiresAtMs = -1,
                   bool expired = false, qint64 sinceMs = -1) {
        QTest::newRow(name) << key << value << false << whole << int(format) << owner << detail << expiresAtMs
                            << expired << sinceMs;
    };
    auto cut = [&](const char* name, const QByteArray& value, qint64 valueSize, LockFormat format,
                   const QString& detail) {
        QTest::newRow(name) << QByteArray("cut") << value << true << valueSize << int(format) << QString()
                            << detail << qint64(-1) << false << qint64(-1);
    };
    const QByteArray lockScopeHex = "0123456789abcdef0123456789abcdef";
    const QByteArray redisPyHex = "dd163e22e61c11f192340242ac110002"; // see decodesUuid1
    const QString redisPyOwner = QStringLiteral("host 02:42:ac:11:00:02");
    const QString redisPyDetail =
        QStringLiteral("uuid1 made 2026-11-22 02:31:46 UTC on node 02:42:ac:11:00:02");

    row("redsync: base64 of 16 bytes", "orders:42", "AAECAwQFBgcICQoLDA0ODw==", LockFormat::Redsync);
    row("redsync under lock: wins over python-redis-lock", "lock:orders",
        "AAECAwQFBgcICQoLDA0ODw==", LockFormat::Redsync);
    row("url-safe base64 is not redsync", "orders:42", "AAECAwQFBgcICQoLDA0OD-==", LockFormat::PlainToken);
    row("25 chars ending == is not redsync", "orders:42",
        "AAECAwQFBgcICQoLDA0ODwA==", LockFormat::PlainToken);
    row("python-redis-lock: 24 unpadded base64 under lock:", "lock:report", "ZGVmZ2hpamtsbW5vcHFyc3R1",
        LockFormat::PythonRedisLock);
    row("python-redis-lock with + and /", "lock:report", "a+b/ZGVmZ2hpamtsbW5vcHFy",
        LockFormat::PythonRedisLock);
    row("24 unpadded base64 outside lock: is plain", "report", "ZGVmZ2hpamtsbW5vcHFyc3R1",
        LockFormat::PlainToken);
    row("23 base64 chars under lock: is plain", "lock:report", "ZGVmZ2hpamtsbW5vcHFyc3R",
        LockFormat::PlainToken);
    row("node-redlock: 32 hex", "invoice", "3f1a9c0b7d2e4f6a8b5c1d0e9f8a7b6c", LockFormat::HexToken);
    row("upper-case hex", "invoice", "3F1A9C0B7D2E4F6A8B5C1D0E9F8A7B6C", LockFormat::HexToken);
    row("31 hex is plain", "invoice", "3f1a9c0b7d2e4f6a8b5c1d0e9f8a7b6", LockFormat::PlainToken);
    row("version 1 nibble without RFC variant is hex", "invoice", "dd163e22e61c11f112340242ac110002",
        LockFormat::HexToken);
    row("uuid1 from 1990 is too old to be redis-py", "invoice", makeUuid1(631152000000LL, 0x0242ac110002),
        LockFormat::HexToken);
    row("redis-py: uuid1 hex", "job", redisPyHex, LockFormat::RedisPy, redisPyOwner, redisPyDetail, -1, false,
        1795314706789LL);
    row("pottery: uuid4 text", "redlock:pay", kUuid4, LockFormat::UuidToken);
    row("redis-semaphore mutex", "mutex:pay", kUuid4, LockFormat::SemaphoreMutex);
    row("redis-semaphore mutex with identifier suffix", "mutex:pay", kUuid4 + "-worker-3",
        LockFormat::SemaphoreMutex);
    row("uuid with suffix outside mutex: is plain", "pay", kUuid4 + "-worker-3", LockFormat::PlainToken);
    row("uuid1 text decodes too", "redlock:pay", dashed(redisPyHex), LockFormat::UuidToken, redisPyOwner,
        redisPyDetail, -1, false, 1795314706789LL);
    row("36 chars with misplaced dashes is plain", "pay", "6f1c2b3a4-d5e-4f60-8a7b-9c0d1e2f3a4b",
        LockFormat::PlainToken);
    row("lockscope token", "any", "ops-laptop/" + lockScopeHex, LockFormat::LockScope,
        QStringLiteral("ops-laptop"));
    row("lockscope owner with slashes and UTF-8", "any", "team/zoë/" + lockScopeHex, LockFormat::LockScope,
        QStringLiteral("team/zoë"));
    row("lockscope token needs lower-case hex", "any", "ops/0123456789ABCDEF0123456789abcdef",
        LockFormat::PlainToken);
    row("lockscope token needs an owner", "any", "/" + lockScopeHex, LockFormat::PlainToken);
    row("lockscope owner must be printable", "any", QByteArray("o\x01/", 3) + lockScopeHex,
        LockFormat::Unknown, {}, QStringLiteral("binary value, 35 bytes"));
    row("legacy seconds, expired", "jobs.lock", "1700000000", LockFormat::LegacyTimestamp,
        QStringLiteral("expired at 2023-11-14 22:13:20 UTC"),
        QStringLiteral("expired at 2023-11-14 22:13:20 UTC"), 1700000000000LL, true);
    row("legacy seconds, in the future", "jobs.lock", "1800000000", LockFormat::LegacyTimestamp,
        QStringLiteral("expires at 2027-01-15 08:00:00 UTC"),
        QStringLiteral("expires at 2027-01-15 08:00:00 UTC"), 1800000000000LL, false);
    row("legacy seconds with a fraction", "jobs.lock", "1700000000.123", LockFormat::LegacyTimestamp,
        QStringLiteral("expired at 2023-11-14 22:13:20 UTC"),
        QStringLiteral("expired at 2023-11-14 22:13:20 UTC"), 1700000000123LL, true);
    row("legacy seconds with microseconds", "jobs.lock", "1800000000.123456", LockFormat::LegacyTimestamp,
        QStringLiteral("expires at 2027-01-15 08:00:00 UTC"),
        QStringLiteral("expires at 2027-01-15 08:00:00 UTC"), 1800000000123LL, false);
    row("legacy seconds with one fraction digit", "jobs.lock", "1800000000.5", LockFormat::LegacyTimestamp,
        QStringLiteral("expires at 2027-01-15 08:00:00 UTC"),
        QStringLiteral("expires at 2027-01-15 08:00:00 UTC"), 1800000000500LL, false);
    row("legacy milliseconds, expired", "jobs.lock", "1700000000999", LockFormat::LegacyTimestamp,
        QStringLiteral("expired at 2023-11-14 22:13:20 UTC"),
        QStringLiteral("expired at 2023-11-14 22:13:20 UTC"), 1700000000999LL, true);
    row("legacy milliseconds, a millisecond ago", "jobs.lock", "1749999999999", LockFormat::LegacyTimestamp,
        QStringLiteral("expired at 2025-06-15 15:06:39 UTC"),
        QStringLiteral("expired at 2025-06-15 15:06:39 UTC"), 1749999999999LL, true);
    row("legacy milliseconds, exactly now is not yet expired", "jobs.lock", "1750000000000",
        LockFormat::LegacyTimestamp, QStringLiteral("expires at 2025-06-15 15:06:40 UTC"),
        QStringLiteral("expires at 2025-06-15 15:06:40 UTC"), kNowMs, false);
    row("legacy milliseconds, in the future", "jobs.lock", "1750000000001", LockFormat::LegacyTimestamp,
        QStringLiteral("expires at 2025-06-15 15:06:40 UTC"),
        QStringLiteral("expires at 2025-06-15 15:06:40 UTC"), 1750000000001LL, false);
    row("10 digits before 2000 is plain", "jobs.lock", "0900000000", LockFormat::PlainToken);
    row("10 digits after 2100 is plain", "jobs.lock", "4200000000", LockFormat::PlainToken);
    row("13 digits after 2100 is plain", "jobs.lock", "9999999999999", LockFormat::PlainToken);
    row("11 digits is plain", "jobs.lock", "17000000000", LockFormat::PlainToken);
    row("trailing dot is plain", "jobs.lock", "1700000000.", LockFormat::PlainToken);
    row("fraction with letters is plain", "jobs.lock", "1700000000.5x", LockFormat::PlainToken);
    row("negative time is plain", "jobs.lock", "-1700000000", LockFormat::PlainToken);
    row("milliseconds with a fraction drops it", "jobs.lock", "1700000000000.5", LockFormat::LegacyTimestamp,
        QStringLiteral("expired at 2023-11-14 22:13:20 UTC"),
        QStringLiteral("expired at 2023-11-14 22:13:20 UTC"), 1700000000000LL, true);
    row("host:pid token", "jobs", "worker-7:4242", LockFormat::PlainToken);
    row("non-ASCII text", "jobs", "zürich-worker-1", LockFormat::PlainToken);
    row("four-byte UTF-8", "jobs", "lock-\xf0\x9f\x94\x92", LockFormat::PlainToken);
    row("single character", "jobs", "1", LockFormat::PlainToken);
    row("empty", "jobs", "", LockFormat::Unknown, {}, QStringLiteral("empty value"));
    row("NUL bytes", "jobs", QByteArray("ab\0cd", 5), LockFormat::Unknown, {},
        QStringLiteral("binary value, 5 bytes"));
    row("32 hex with a NUL", "jobs", QByteArray("3f1a9c0b7d2e4f6a8b5c1d0e9f8a7b6\0", 32), LockFormat::Unknown,
        {}, QStringLiteral("binary value, 32 bytes"));
    row("invalid UTF-8", "jobs", "\xff\xfe", LockFormat::Unknown, {},
        QStringLiteral("binary value, 2 bytes"));
    row("newline", "jobs", "token\n", LockFormat::Unknown, {}, QStringLiteral("binary value, 6 bytes"));
    row("DEL character", "jobs", "to\x7fken", LockFormat::Unknown, {},
        QStringLiteral("binary value, 6 bytes"));
    row("overlong encoding", "jobs", "\xc0\xaf", LockFormat::Unknown, {},
        QStringLiteral("binary value, 2 bytes"));
    row("UTF-16 surrogate in UTF-8", "jobs", "\xed\xa0\x80", LockFormat::Unknown, {},
        QStringLiteral("binary value, 3 bytes"));
    row("beyond U+10FFFF", "jobs", "\xf4\x90\x80\x80", LockFormat::Unknown, {},
        QStringLiteral("binary value, 4 bytes"));
    row("C1 control", "jobs", "\xc2\x85", LockFormat::Unknown, {}, QStringLiteral("binary value, 2 bytes"));
    row("character cut without the truncated flag", "jobs", "abc\xc3", LockFormat::Unknown, {},
        QStringLiteral("binary value, 4 bytes"));
    cut("truncated text", QByteArray(16, 'x'), 5000, LockFormat::PlainToken,
        QStringLiteral("value cut at 16 of 5000 bytes"));
    cut("truncated inside a multibyte character", "abcd\xc3", 9000, LockFormat::PlainToken,
        QStringLiteral("value cut at 5 of 9000 bytes"));
    cut("truncated hex prefix is not a hex token", "3f1a9c0b7d2e4f6a8b5c1d0e9f8a7b6c", 64,
        LockFormat::PlainToken, QStringLiteral("value cut at 32 of 64 bytes"));
    cut("truncated timestamp prefix is not a timestamp", "1700000000", 20, LockFormat::PlainToken,
        QStringLiteral("value cut at 10 of 20 bytes"));
    cut("truncated binary", QByteArray("\0\1", 2), 100, LockFormat::Unknown,
        QStringLiteral("value cut at 2 of 100 bytes"));
    cut("truncated flag with a missing size", "abc", 0, LockFormat::PlainToken,
        QStringLiteral("value cut at 3 of 3 bytes"));
}

void TestLockFormatRecognizer::recognizesStrings()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, value);
    QFETCH(bool, truncated);
    QFETCH(qint64, valueSize);
    QFETCH(int, format);
    QFETCH(QString, owner);
    QFETCH(QString, detail);
    QFETCH(qint64, expiresAtMs);
    QFETCH(bool, expired);
    QFETCH(qint64, sinceMs);

    const RecognizedLock lock =
        LockFormatRecognizer::recognize(key, stringObservation(value, truncated, valueSize), {}, kNowMs);
    QCOMPARE(lockFormatName(lock.format), lockFormatName(LockFormat(format)));
    QCOMPARE(lock.token, value);
    QCOMPARE(lock.owner, owner);
    QCOMPARE(lock.detail, detail);
    QCOMPARE(lock.expiresAtMs, expiresAtMs);
    QCOMPARE(lock.expiredByTimestamp, expired);
    QVERIFY(!lock.auxiliary);
    if (value.isEmpty()) {
        QVERIFY(lock.holders.isEmpty());
    } else {
        QCOMPARE(describe(lock.holders), QStringList{holder(value, owner, 1, sinceMs)});
    }
}

void TestLockFormatRecognizer::decodesUuid1_data()
{
    QTest::addColumn<qint64>("unixMs");
    QTest::addColumn<quint64>("node");
    QTest::addColumn<quint64>("extraTicks");
    QTest::addColumn<QByteArray>("expectedHex");
    QTest::addColumn<QString>("made");
    QTest::addColumn<QString>("mac");

    // The first row's hex was also produced by Python's uuid.UUID(fields=...) for the same
    // time, clock sequence 0x1234 and node: it checks makeUuid1 itself.
    QTest::newRow("2026-11-22 02:31:46.789 on 02:42:ac:11:00:02")
        << qint64(1795314706789LL) << quint64(0x0242ac110002ULL) << quint64(1234)
        << QByteArray("dd163e22e61c11f192340242ac110002") << QStringLiteral("2026-11-22 02:31:46 UTC")
        << QStringLiteral("02:42:ac:11:00:02");
    QTest::newRow("first plausible millisecond, 2000-01-01")
        << qint64(946684800000LL) << quint64(0x001122334455ULL) << quint64(0) << QByteArray()
        << QStringLiteral("2000-01-01 00:00:00 UTC") << QStringLiteral("00:11:22:33:44:55");
    QTest::newRow("last plausible millisecond, 2099-12-31")
        << qint64(4102444799999LL) << quint64(0xffffffffffffULL) << quint64(9999) << QByteArray()
        << QStringLiteral("2099-12-31 23:59:59 UTC") << QStringLiteral("ff:ff:ff:ff:ff:ff");
    QTest::newRow("leap day 2024") << qint64(1709164800000LL + 3723000) << quint64(0xa0b1c2d3e4f5ULL)
                                   << quint64(42) << QByteArray() << QStringLiteral("2024-02-29 01:02:03 UTC")
                                   << QStringLiteral("a0:b1:c2:d3:e4:f5");
    QTest::newRow("multicast random node, as libuuid makes without a MAC")
        << qint64(1750000000000LL) << quint64(0x0300000000fdULL) << quint64(1) << QByteArray()
        << QStringLiteral("2025-06-15 15:06:40 UTC") << QStringLiteral("03:00:00:00:00:fd");
}

void TestLockFormatRecognizer::decodesUuid1()
{
    QFETCH(qint64, unixMs);
    QFETCH(quint64, node);
    QFETCH(quint64, extraTicks);
    QFETCH(QByteArray, expectedHex);
    QFETCH(QString, made);
    QFETCH(QString, mac);

    const QByteArray hex = makeUuid1(unixMs, node, 0x1234, extraTicks);
    QCOMPARE(hex.size(), 32);
    QCOMPARE(hex[12], '1');
    if (!expectedHex.isEmpty())
        QCOMPARE(hex, expectedHex);

    const QString detail = QStringLiteral("uuid1 made %1 on node %2").arg(made, mac);
    for (const QByteArray& token : {hex, hex.toUpper()}) {
        const RecognizedLock lock =
            LockFormatRecognizer::recognize("job", stringObservation(token), {}, kNowMs);
        QCOMPARE(lock.format, LockFormat::RedisPy);
        QCOMPARE(lock.owner, QStringLiteral("host ") + mac);
        QCOMPARE(lock.detail, detail);
        QCOMPARE(lock.holders.size(), 1);
        QCOMPARE(lock.holders.first().sinceMs, unixMs);
    }
    const RecognizedLock text =
        LockFormatRecognizer::recognize("redlock:job", stringObservation(dashed(hex)), {}, 0);
    QCOMPARE(text.format, LockFormat::UuidToken);
    QCOMPARE(text.detail, detail);
    // One millisecond outside the plausible window in either direction is a plain hex token.
    for (const qint64 outside : {qint64(946684799999LL), qint64(4102444800000LL)}) {
        const RecognizedLock lock = LockFormatRecognizer::recognize(
            "job", stringObservation(makeUuid1(outside, node, 0x1234, extraTicks)), {}, kNowMs);
        QCOMPARE(lock.format, LockFormat::HexToken);
        QVERIFY(lock.owner.isEmpty());
    }
}

void TestLockFormatRecognizer::recognizesHashes_data()
{
    QTest::addColumn<QByteArrayList>("fields");
    QTest::addColumn<bool>("truncated");
    QTest::addColumn<qint64>("elementCount");
    QTest::addColumn<int>("format");
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<QString>("owner");
    QTest::addColumn<QString>("detail");
    QTest::addColumn<QStringList>("holders");

    const QByteArray a57 = kInstanceA + ":57";
    const QByteArray b12 = kInstanceB + ":12";
    const QByteArray aWrite = kInstanceA + ":57:write";
    const QString ownerA = threadOf("57", kInstanceA);
    const QString ownerB = threadOf("12", kInstanceB);
    const qint64 all = -1;

    QTest::newRow("redisson: one holder")
        << QByteArrayList{a57, "1"} << false << all << int(LockFormat::Redisson) << a57 << ownerA << QString()
        << QStringList{holder(a57, ownerA)};
    QTest::newRow("redisson: re-entered three times")
        << QByteArrayList{a57, "3"} << false << all << int(LockFormat::Redisson) << a57 << ownerA << QString()
        << QStringList{holder(a57, ownerA, 3)};
    QTest::newRow("redisson: long thread id")
        << QByteArrayList{kInstanceA + ":9223372036854775807", "1"} << false << all
        << int(LockFormat::Redisson) << QByteArray(kInstanceA + ":9223372036854775807")
        << threadOf("9223372036854775807", kInstanceA) << QString()
        << QStringList{
               holder(kInstanceA + ":9223372036854775807", threadOf("9223372036854775807", kInstanceA))};
    QTest::newRow("redisson: two holders sorted into the token")
        << QByteArrayList{a57, "1", b12, "2"} << false << all << int(LockFormat::Redisson)
        << QByteArray(b12 + ',' + a57) << QStringLiteral("2 holders") << QString()
        << QStringList{holder(b12, ownerB, 2), holder(a57, ownerA)};
    QTest::newRow("redisson: fields cut at the limit")
        << QByteArrayList{a57, "1"} << true << qint64(300) << int(LockFormat::Redisson) << a57 << ownerA
        << QStringLiteral("1 of 300 entries read") << QStringList{holder(a57, ownerA)};
    QTest::newRow("read-write: two readers")
        << QByteArrayList{"mode", "read", a57, "1", b12, "4"} << false << all
        << int(LockFormat::RedissonReadWrite) << QByteArray(b12 + ',' + a57) << QStringLiteral("2 holders")
        << QStringLiteral("read mode") << QStringList{holder(b12, ownerB, 4), holder(a57, ownerA)};
    QTest::newRow("read-write: writer")
        << QByteArrayList{"mode", "write", aWrite, "1"} << false << all << int(LockFormat::RedissonReadWrite)
        << aWrite << QString(ownerA + QStringLiteral(" (write)")) << QStringLiteral("write mode")
        << QStringList{holder(aWrite, ownerA + QStringLiteral(" (write)"))};
    QTest::newRow("read-write: writer that also reads")
        << QByteArrayList{aWrite, "1", "mode", "write", a57, "2"} << false << all
        << int(LockFormat::RedissonReadWrite) << QByteArray(a57 + ',' + aWrite) << QStringLiteral("2 holders")
        << QStringLiteral("write mode")
        << QStringList{holder(a57, ownerA, 2), holder(aWrite, ownerA + QStringLiteral(" (write)"))};
    QTest::newRow("read-write: mode alone")
        << QByteArrayList{"mode", "read"} << false << all << int(LockFormat::RedissonReadWrite)
        << QByteArray() << QString() << QStringLiteral("read mode") << QStringList();
    QTest::newRow(":write field without a mode is unknown")
        << QByteArrayList{aWrite, "1"} << false << all << int(LockFormat::Unknown) << aWrite << QString()
        << QStringLiteral("hash of unknown shape") << QStringList();
    QTest::newRow("unknown mode") << QByteArrayList{"mode", "exclusive", a57, "1"} << false << all
                                  << int(LockFormat::Unknown) << QByteArray(a57 + ",mode") << QString()
                                  << QStringLiteral("hash of unknown shape") << QStringList();
    QTest::newRow("field without thread id")
        << QByteArrayList{kInstanceA + ":", "1"} << false << all << int(LockFormat::Unknown)
        << QByteArray(kInstanceA + ":") << QString() << QStringLiteral("hash of unknown shape")
        << QStringList();
    QTest::newRow("field with a short uuid")
        << QByteArrayList{"8f3c2a1e-5b7d-4c9e-a1f2-3b4c5d6e7f8:57", "1"} << false << all
        << int(LockFormat::Unknown) << QByteArray("8f3c2a1e-5b7d-4c9e-a1f2-3b4c5d6e7f8:57") << QString()
        << QStringLiteral("hash of unknown shape") << QStringList();
    QTest::newRow("non-integer count")
        << QByteArrayList{a57, "one"} << false << all << int(LockFormat::Unknown) << a57 << QString()
        << QStringLiteral("hash of unknown shape") << QStringList();
    QTest::newRow("negative count") << QByteArrayList{a57, "-1"} << false << all << int(LockFormat::Unknown)
                                    << a57 << QString() << QStringLiteral("hash of unknown shape")
                                    << QStringList();
    QTest::newRow("one foreign field spoils the shape")
        << QByteArrayList{a57, "1", "owner", "bob"} << false << all << int(LockFormat::Unknown)
        << QByteArray(a57 + ",owner") << QString() << QStringLiteral("hash of unknown shape")
        << QStringList();
    QTest::newRow("binary field names")
        << QByteArrayList{QByteArray("\0\xff", 2), QByteArray("\x80", 1)} << true << qint64(9)
        << int(LockFormat::Unknown) << QByteArray("\0\xff", 2) << QString()
        << QStringLiteral("hash of unknown shape; 1 of 9 entries read") << QStringList();
    QTest::newRow("no fields read") << QByteArrayList{} << true << qint64(5) << int(LockFormat::Unknown)
                                    << QByteArray() << QString()
                                    << QStringLiteral("empty hash; 0 of 5 entries read") << QStringList();
}

void TestLockFormatRecognizer::recognizesHashes()
{
    QFETCH(QByteArrayList, fields);
    QFETCH(bool, truncated);
    QFETCH(qint64, elementCount);
    QFETCH(int, format);
    QFETCH(QByteArray, token);
    QFETCH(QString, owner);
    QFETCH(QString, detail);
    QFETCH(QStringList, holders);

    const RecognizedLock lock = LockFormatRecognizer::recognize(
        "orders", hashObservation(fields, truncated, elementCount), {}, kNowMs);
    QCOMPARE(lockFormatName(lock.format), lockFormatName(LockFormat(format)));
    QCOMPARE(lock.token, token);
    QCOMPARE(lock.owner, owner);
    QCOMPARE(lock.detail, detail);
    QCOMPARE(describe(lock.holders), holders);
    QVERIFY(!lock.auxiliary);
    QCOMPARE(lock.expiresAtMs, qint64(-1));
}

void TestLockFormatRecognizer::recognizesSemaphores_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArrayList>("members");
    QTest::addColumn<QList<double>>("scores");
    QTest::addColumn<int>("format");
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<QString>("owner");
    QTest::addColumn<QString>("detail");
    QTest::addColumn<QStringList>("holders");

    const QByteArray u1 = "0b8e8c52-6a3c-4a55-9d1e-2f2d9b6a0c11";
    const QByteArray u2 = "5d0f3a44-1e2b-4c6d-8e9f-a0b1c2d3e4f5";
    const QByteArray u3 = "e2a1b3c4-d5e6-4f70-8192-a3b4c5d6e7f8";
    const double t = 1750000000123.0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();

    QTest::newRow("one holder") << QByteArray("semaphore:pool") << QByteArrayList{u2} << QList<double>{t}
                                << int(LockFormat::Semaphore) << u2 << QString()
                                << QStringLiteral("1 holders, 1 permits")
                                << QStringList{holder(u2, {}, 1, 1750000000123LL)};
    QTest::newRow("three holders sorted into the token")
        << QByteArray("semaphore:pool") << QByteArrayList{u3, u1, u2} << QList<double>{t + 2, t, t + 1}
        << int(LockFormat::Semaphore) << QByteArray(u1 + ',' + u2 + ',' + u3) << QStringLiteral("3 holders")
        << QStringLiteral("3 holders, 3 permits")
        << QStringList{holder(u1, {}, 1, 1750000000123LL), holder(u2, {}, 1, 1750000000124LL),
                       holder(u3, {}, 1, 1750000000125LL)};
    QTest::newRow("multi-permit holder grouped")
        << QByteArray("semaphore:pool") << QByteArrayList{u1 + "_0", u1 + "_1", u1 + "_2"}
        << QList<double>{t, t, t} << int(LockFormat::Semaphore) << u1 << QString()
        << QStringLiteral("1 holders, 3 permits") << QStringList{holder(u1, {}, 3, 1750000000123LL)};
    QTest::newRow("multi-permit and single holders")
        << QByteArray("semaphore:pool") << QByteArrayList{u2 + "_1", u3, u2 + "_0"}
        << QList<double>{t + 5, t, t + 4} << int(LockFormat::Semaphore) << QByteArray(u2 + ',' + u3)
        << QStringLiteral("2 holders") << QStringLiteral("2 holders, 3 permits")
        << QStringList{holder(u2, {}, 2, 1750000000127LL), holder(u3, {}, 1, 1750000000123LL)};
    QTest::newRow("underscore without a number is part of the id")
        << QByteArray("semaphore:pool") << QByteArrayList{"worker_a", "worker_"} << QList<double>{t, t}
        << int(LockFormat::Semaphore) << QByteArray("worker_,worker_a") << QStringLiteral("2 holders")
        << QStringLiteral("2 holders, 2 permits")
        << QStringList{holder("worker_", {}, 1, 1750000000123LL), holder("worker_a", {}, 1, 1750000000123LL)};
    QTest::newRow("infinite and NaN scores have no time")
        << QByteArray("semaphore:pool") << QByteArrayList{"a", "b", "c"} << QList<double>{inf, nan, -inf}
        << int(LockFormat::Semaphore) << QByteArray("a,b,c") << QStringLiteral("3 holders")
        << QStringLiteral("3 holders, 3 permits")
        << QStringList{holder("a", {}), holder("b", {}), holder("c", {})};
    QTest::newRow("zset outside semaphore: is unknown")
        << QByteArray("leaderboard-lock") << QByteArrayList{u2, u1} << QList<double>{t, t}
        << int(LockFormat::Unknown) << QByteArray(u1 + ',' + u2) << QString() << QStringLiteral("sorted set")
        << QStringList();
}

void TestLockFormatRecognizer::recognizesSemaphores()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArrayList, members);
    QFETCH(QList<double>, scores);
    QFETCH(int, format);
    QFETCH(QByteArray, token);
    QFETCH(QString, owner);
    QFETCH(QString, detail);
    QFETCH(QStringList, holders);

    const RecognizedLock lock =
        LockFormatRecognizer::recognize(key, zsetObservation(members, scores), {}, kNowMs);
    QCOMPARE(lockFormatName(lock.format), lockFormatName(LockFormat(format)));
    QCOMPARE(lock.token, token);
    QCOMPARE(lock.owner, owner);
    QCOMPARE(lock.detail, detail);
    QCOMPARE(describe(lock.holders), holders);
    QVERIFY(!lock.auxiliary);
}

void TestLockFormatRecognizer::recognizesAuxiliaryKeys_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("type");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("auxiliary");
    QTest::addColumn<int>("format");
    QTest::addColumn<QByteArray>("token");

    QTest::newRow("python-redis-lock signal list")
        << QByteArray("lock-signal:report") << QByteArray("list") << QByteArray() << true
        << int(LockFormat::PythonRedisLock) << QByteArray();
    QTest::newRow("redisson fair-lock queue")
        << QByteArray("redisson_lock_queue:{orders}") << QByteArray("list") << QByteArray() << true
        << int(LockFormat::Redisson) << QByteArray();
    QTest::newRow("redisson fair-lock timeouts")
        << QByteArray("redisson_lock_timeout:{orders}") << QByteArray("zset") << QByteArray() << true
        << int(LockFormat::Redisson) << QByteArray();
    QTest::newRow("redisson unlock channel name")
        << QByteArray("redisson_lock__channel:{orders}") << QByteArray("string") << QByteArray("0") << true
        << int(LockFormat::Redisson) << QByteArray("0");
    QTest::newRow("redisson fenced-lock counter")
        << QByteArray("redisson_lock_token:{orders}") << QByteArray("string") << QByteArray("42") << true
        << int(LockFormat::Redisson) << QByteArray("42");
    QTest::newRow("redisson read-lock lease")
        << QByteArray("{orders}:" + kInstanceA + ":57:rwlock_timeout:1") << QByteArray("string")
        << QByteArray("1") << true << int(LockFormat::Redisson) << QByteArray("1");
    QTest::newRow("helper that is gone") << QByteArray("lock-signal:report") << QByteArray() << QByteArray()
                                         << true << int(LockFormat::PythonRedisLock) << QByteArray();
    QTest::newRow("lock:signal is a lock, not a helper")
        << QByteArray("lock:signal") << QByteArray("string") << QByteArray("ZGVmZ2hpamtsbW5vcHFyc3R1")
        << false << int(LockFormat::PythonRedisLock) << QByteArray("ZGVmZ2hpamtsbW5vcHFyc3R1");
    QTest::newRow("prefix must start the key")
        << QByteArray("my-lock-signal:x") << QByteArray("string") << QByteArray("t") << false
        << int(LockFormat::PlainToken) << QByteArray("t");
    QTest::newRow("a list elsewhere is not a lock")
        << QByteArray("jobs-lock-list") << QByteArray("list") << QByteArray() << false
        << int(LockFormat::Unknown) << QByteArray();
}

void TestLockFormatRecognizer::recognizesAuxiliaryKeys()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, type);
    QFETCH(QByteArray, value);
    QFETCH(bool, auxiliary);
    QFETCH(int, format);
    QFETCH(QByteArray, token);

    KeyObservation o;
    o.present = !type.isEmpty();
    o.type = type;
    o.value = value;
    o.elementCount = 2;
    // A rule matching everything must not give a helper an owner.
    const QList<OwnerRule> rules = rulesFrom({QStringLiteral("*\t^.*$")});
    const RecognizedLock lock = LockFormatRecognizer::recognize(key, o, rules, kNowMs);
    QCOMPARE(lock.auxiliary, auxiliary);
    QCOMPARE(lockFormatName(lock.format), lockFormatName(LockFormat(format)));
    QCOMPARE(lock.token, token);
    if (auxiliary) {
        QVERIFY(lock.holders.isEmpty());
        QVERIFY(lock.owner.isEmpty());
        QVERIFY(!lock.detail.isEmpty());
    }
}

void TestLockFormatRecognizer::appliesOwnerRules_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("value");      // a string key when no fields
    QTest::addColumn<QByteArrayList>("fields"); // else a hash
    QTest::addColumn<QStringList>("rules");
    QTest::addColumn<QString>("owner");
    QTest::addColumn<QStringList>("holderOwners");

    const QByteArray lockScope = "ops-laptop/0123456789abcdef0123456789abcdef";
    const QString all = QStringLiteral("*\t");

    QTest::newRow("named group overrides the lockscope owner")
        << QByteArray("k") << lockScope << QByteArrayList() << QStringList{all + "^(?<owner>[a-z]+)-"}
        << QStringLiteral("ops") << QStringList{QStringLiteral("ops")};
    QTest::newRow("first capture") << QByteArray("k") << QByteArray("worker-7:4242") << QByteArrayList()
                                   << QStringList{all + "^worker-(\\d+):"} << QStringLiteral("7")
                                   << QStringList{QStringLiteral("7")};
    QTest::newRow("whole match") << QByteArray("k") << QByteArray("worker-7:4242") << QByteArrayList()
                                 << QStringList{all + "^[a-z]+"} << QStringLiteral("worker")
                                 << QStringList{QStringLiteral("worker")};
    QTest::newRow("first matching rule wins")
        << QByteArray("k") << QByteArray("worker-7:4242") << QByteArrayList()
        << QStringList{all + "^nomatch(.*)", all + "^(worker)", all + "^(w)"} << QStringLiteral("worker")
        << QStringList{QStringLiteral("worker")};
    QTest::newRow("invalid pattern is skipped")
        << QByteArray("k") << QByteArray("worker-7:4242") << QByteArrayList()
        << QStringList{all + "(unclosed", all + "^(worker)"} << QStringLiteral("worker")
        << QStringList{QStringLiteral("worker")};
    QTest::newRow("glob matching the key")
        << QByteArray("jobs:nightly") << QByteArray("worker-7:4242") << QByteArrayList()
        << QStringList{"jobs:*\t^(?<owner>[^:]+)"} << QStringLiteral("worker-7")
        << QStringList{QStringLiteral("worker-7")};
    QTest::newRow("glob for other keys does not apply")
        << QByteArray("orders:1") << QByteArray("worker-7:4242") << QByteArrayList()
        << QStringList{"jobs:*\t^(?<owner>.+)$"} << QString() << QStringList{QString()};
    QTest::newRow("non-matching rule keeps the decoded uuid1 owner")
        << QByteArray("job") << QByteArray("dd163e22e61c11f192340242ac110002") << QByteArrayList()
        << QStringList{all + "^zzz"} << QStringLiteral("host 02:42:ac:11:00:02")
        << QStringList{QStringLiteral("host 02:42:ac:11:00:02")};
    QTest::newRow("rule on each redisson holder")
        << QByteArray("orders") << QByteArray()
        << QByteArrayList{kInstanceA + ":57", "1", kInstanceB + ":12", "1"}
        << QStringList{all + "^[0-9a-f-]{36}:(?<owner>\\d+)$"} << QStringLiteral("2 holders")
        << QStringList{QStringLiteral("12"), QStringLiteral("57")};
    QTest::newRow("rule on a binary token")
        << QByteArray("k") << QByteArray("\xff\x00\xfeid=9", 7) << QByteArrayList()
        << QStringList{all + "id=(\\d)"} << QStringLiteral("9") << QStringList{QStringLiteral("9")};
}

void TestLockFormatRecognizer::appliesOwnerRules()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, value);
    QFETCH(QByteArrayList, fields);
    QFETCH(QStringList, rules);
    QFETCH(QString, owner);
    QFETCH(QStringList, holderOwners);

    const KeyObservation o = fields.isEmpty() ? stringObservation(value) : hashObservation(fields);
    const RecognizedLock lock = LockFormatRecognizer::recognize(key, o, rulesFrom(rules), kNowMs);
    QCOMPARE(lock.owner, owner);
    QStringList owners;
    for (const LockHolder& h : lock.holders)
        owners << h.owner;
    QCOMPARE(owners, holderOwners);
}

void TestLockFormatRecognizer::ignoresAbsentAndFailedReads_data()
{
    QTest::addColumn<bool>("present");
    QTest::addColumn<QByteArray>("type");
    QTest::addColumn<int>("errorKind");

    QTest::newRow("absent") << false << QByteArray() << int(ErrorKind::None);
    QTest::newRow("absent with a stale type") << false << QByteArray("string") << int(ErrorKind::None);
    QTest::newRow("read timed out") << false << QByteArray() << int(ErrorKind::Timeout);
    QTest::newRow("error with a partial value") << true << QByteArray("string") << int(ErrorKind::Timeout);
}

void TestLockFormatRecognizer::ignoresAbsentAndFailedReads()
{
    QFETCH(bool, present);
    QFETCH(QByteArray, type);
    QFETCH(int, errorKind);

    KeyObservation o;
    o.present = present;
    o.type = type;
    o.value = "AAECAwQFBgcICQoLDA0ODw==";
    o.error.kind = ErrorKind(errorKind);
    const RecognizedLock lock =
        LockFormatRecognizer::recognize("orders", o, rulesFrom({QStringLiteral("*\t^(.+)$")}), kNowMs);
    QCOMPARE(lock, RecognizedLock());
}

void TestLockFormatRecognizer::survivesHugeValues_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("truncated");
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("ownerChars");

    const qsizetype mb = 1024 * 1024;
    QByteArray binary(mb, 'a');
    binary[mb - 1] = '\0';
    QByteArray lockScopeShaped(mb, 'o');
    lockScopeShaped += "/0123456789abcdef0123456789abcdef";
    QByteArray hex;
    while (hex.size() < mb)
        hex += "0123456789abcdef";

    QTest::newRow("1 MB of text") << QByteArray(mb, 'a') << false << int(LockFormat::PlainToken) << 0;
    QTest::newRow("1 MB ending in NUL") << binary << false << int(LockFormat::Unknown) << 0;
    QTest::newRow("1 MB of 0xff") << QByteArray(mb, '\xff') << false << int(LockFormat::Unknown) << 0;
    QTest::newRow("1 MB of hex") << hex << false << int(LockFormat::PlainToken) << 0;
    QTest::newRow("1 MB of digits") << QByteArray(mb, '7') << false << int(LockFormat::PlainToken) << 0;
    // The owner shown is cut: one lock must not put a megabyte into every table cell.
    QTest::newRow("1 MB lockscope owner") << lockScopeShaped << false << int(LockFormat::LockScope) << 129;
    QTest::newRow("1 MB flagged truncated")
        << QByteArray(mb, 'z') << true << int(LockFormat::PlainToken) << 0;
}

void TestLockFormatRecognizer::survivesHugeValues()
{
    QFETCH(QByteArray, value);
    QFETCH(bool, truncated);
    QFETCH(int, format);
    QFETCH(int, ownerChars);

    const RecognizedLock lock = LockFormatRecognizer::recognize(
        "big-lock", stringObservation(value, truncated, value.size() * 2), {}, kNowMs);
    QCOMPARE(lockFormatName(lock.format), lockFormatName(LockFormat(format)));
    QCOMPARE(lock.token.size(), value.size());
    QCOMPARE(lock.owner.size(), ownerChars);
}

void TestLockFormatRecognizer::survivesHugeCollections()
{
    const int n = 100000;
    QByteArrayList fields;
    QByteArrayList members;
    QList<double> scores;
    for (int i = 0; i < n; ++i) {
        fields << kInstanceA + ':' + QByteArray::number(i) << QByteArray::number(i % 7 + 1);
        members << QByteArray::number(i) + "-id_" + QByteArray::number(i % 3);
        scores << 1750000000000.0 + i;
    }
    const RecognizedLock redisson =
        LockFormatRecognizer::recognize("orders", hashObservation(fields), {}, kNowMs);
    QCOMPARE(redisson.format, LockFormat::Redisson);
    QCOMPARE(redisson.holders.size(), n);
    QCOMPARE(redisson.owner, QStringLiteral("%1 holders").arg(n));

    fields.last() = "junk";
    QCOMPARE(LockFormatRecognizer::recognize("orders", hashObservation(fields), {}, kNowMs).format,
             LockFormat::Unknown);

    const RecognizedLock semaphore =
        LockFormatRecognizer::recognize("semaphore:big", zsetObservation(members, scores), {}, kNowMs);
    QCOMPARE(semaphore.format, LockFormat::Semaphore);
    QCOMPARE(semaphore.holders.size(), n);
    QCOMPARE(semaphore.holders.first().id, QByteArray("0-id"));
}

void TestLockFormatRecognizer::survivesArbitraryBytes()
{
    // Seeded, so a failure reproduces; the alphabets steer values near the recognised shapes.
    QRandomGenerator random(20240615);
    const QByteArrayList keys{
        "lock:", "mutex:", "semaphore:", "lock-signal:", "redisson_lock_queue:", "", "{x}:"};
    const QByteArrayList alphabets{"0123456789abcdef",
                                   "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=",
                                   "0123456789.", "0123456789abcdef-:_/", QByteArray()};
    const QByteArrayList types{"string", "hash", "zset", "list", "", "stream"};
    auto bytes = [&](int maxLength) {
        const QByteArray& alphabet = alphabets[random.bounded(int(alphabets.size()))];
        QByteArray out(random.bounded(maxLength + 1), '\0');
        for (char& c : out)
            c = alphabet.isEmpty() ? char(random.bounded(256))
                                   : alphabet[random.bounded(int(alphabet.size()))];
        return out;
    };
    for (int i = 0; i < 5000; ++i) {
        const QByteArray key = keys[random.bounded(int(keys.size()))] + bytes(12);
        KeyObservation o;
        o.present = random.bounded(10) != 0;
        o.type = types[random.bounded(int(types.size()))];
        o.truncated = random.bounded(4) == 0;
        const int length = random.bounded(4) == 0 ? 40 : 36;
        o.value = bytes(length);
        o.valueSize = o.value.size() + (o.truncated ? random.bounded(1000) : 0);
        for (int f = random.bounded(4); f > 0; --f) {
            o.fields.append({random.bounded(2) ? kInstanceA + ':' + bytes(3) : bytes(40), bytes(3)});
            const double special[] = {std::numeric_limits<double>::quiet_NaN(),
                                      std::numeric_limits<double>::infinity(), -1e300, 1e300, 0.0};
            o.members.append(
                {bytes(40), random.bounded(2) ? special[random.bounded(5)] : random.generateDouble() * 4e12});
        }
        o.elementCount = o.fields.size();

        const RecognizedLock lock = LockFormatRecognizer::recognize(key, o, {}, kNowMs);
        QCOMPARE(LockFormatRecognizer::recognize(key, o, {}, kNowMs), lock);
        if (lock.auxiliary || !o.present)
            continue;
        if (o.type == "string") {
            QCOMPARE(lock.token, o.value);
            QCOMPARE(lock.holders.size(), o.value.isEmpty() ? 0 : 1);
        }
        switch (lock.format) {
        case LockFormat::Redsync:
        case LockFormat::PythonRedisLock:
            QCOMPARE(lock.token.size(), 24);
            break;
        case LockFormat::HexToken:
        case LockFormat::RedisPy:
            QCOMPARE(lock.token.size(), 32);
            break;
        case LockFormat::LegacyTimestamp:
            QVERIFY(isPlausibleMs(lock.expiresAtMs));
            break;
        case LockFormat::Redisson:
            for (const LockHolder& h : lock.holders)
                QVERIFY(h.id.startsWith(QByteArray(kInstanceA + ':')));
            break;
        case LockFormat::Semaphore: {
            qint64 permits = 0;
            for (const LockHolder& h : lock.holders)
                permits += h.count;
            QCOMPARE(permits, qint64(o.members.size()));
            break;
        }
        default:
            break;
        }
        if (o.truncated)
            QVERIFY(lock.format == LockFormat::PlainToken || lock.format == LockFormat::Unknown ||
                    o.type != "string");
    }
}

QTEST_GUILESS_MAIN(TestLockFormatRecognizer)
#include "tst_lockformatrecognizer.moc"
