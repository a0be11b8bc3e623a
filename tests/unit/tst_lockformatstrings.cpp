// SPDX-License-Identifier: Apache-2.0
#include "formats/lockformatrecognizer.h"
#include "support/recognizersamples.h"
#include "support/testregistry.h"

#include <QRegularExpression>
#include <QTest>

namespace tst_lockformatstrings {

using namespace lockscope;
using namespace lockscope::test;

// The string family of LockFormatRecognizer (formats/stringformats): single-holder tokens, redis-py's
// uuid1, redis-semaphore's mutex, legacy expiry timestamps, plain and binary values.
namespace {

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

} // namespace

class TestLockFormatStrings : public QObject
{
    Q_OBJECT

private slots:
    void recognizesStrings_data();
    void recognizesStrings();
    void decodesUuid1_data();
    void decodesUuid1();
    void survivesHugeValues_data();
    void survivesHugeValues();
    void aStringLockKeepsNoHolderListOfItsOwn();
};

void TestLockFormatStrings::recognizesStrings_data()
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
    // A legacy lock names no holder: `shown` ("expired at ...", "expires at ...") is its owner and detail.
    auto legacy = [&](const char* name, const QByteArray& value, const char* shown, qint64 expiresAtMs,
                      bool expired) {
        row(name, "jobs.lock", value, LockFormat::LegacyTimestamp, QString::fromLatin1(shown),
            QString::fromLatin1(shown), expiresAtMs, expired);
    };
    auto binary = [&](const char* name, const QByteArray& value, int bytes) {
        row(name, "jobs", value, LockFormat::Unknown, {},
            QStringLiteral("binary value, %1 bytes").arg(bytes));
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
    // @redis-kit/lock cuts the base64 of 17 random bytes to 22 characters (issue #46).
    row("base64 token: 22 chars with + and /", "orders:42", "Uq8+0bH/7dK2xVf3LmN9pQ",
        LockFormat::Base64Token);
    row("base64 token: letters and digits", "orders:42", "x7KpQ2mZ9vB4nR8sT1wYcD", LockFormat::Base64Token);
    row("base64 token: letters alone, case as random", "orders:42", "qWErTyUIoPaSdFgHJkLzXc",
        LockFormat::Base64Token);
    row("a CamelCase name of 22 letters is plain", "orders:42", "ProcessingQueueManager",
        LockFormat::PlainToken);
    row("TitleCase words of 22 letters are plain", "orders:42", "SessionTokenForUserAbc",
        LockFormat::PlainToken);
    row("22 chars in one case are plain", "orders:42", "abcdefghij0123456789ab", LockFormat::PlainToken);
    row("url-safe alphabet is no base64 token", "orders:42", "Uq8-0bH_7dK2xVf3LmN9pQ",
        LockFormat::PlainToken);
    row("21 chars are no base64 token", "orders:42", "Uq8+0bH/7dK2xVf3LmN9p", LockFormat::PlainToken);
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
    legacy("legacy seconds, expired", "1700000000", "expired at 2023-11-14 22:13:20 UTC", 1700000000000LL,
           true);
    legacy("legacy seconds, in the future", "1800000000", "expires at 2027-01-15 08:00:00 UTC",
           1800000000000LL, false);
    legacy("legacy seconds with a fraction", "1700000000.123", "expired at 2023-11-14 22:13:20 UTC",
           1700000000123LL, true);
    legacy("legacy seconds with microseconds", "1800000000.123456", "expires at 2027-01-15 08:00:00 UTC",
           1800000000123LL, false);
    legacy("legacy seconds with one fraction digit", "1800000000.5", "expires at 2027-01-15 08:00:00 UTC",
           1800000000500LL, false);
    legacy("legacy milliseconds, expired", "1700000000999", "expired at 2023-11-14 22:13:20 UTC",
           1700000000999LL, true);
    legacy("legacy milliseconds, a millisecond ago", "1749999999999", "expired at 2025-06-15 15:06:39 UTC",
           1749999999999LL, true);
    legacy("legacy milliseconds, exactly now is not yet expired", "1750000000000",
           "expires at 2025-06-15 15:06:40 UTC", kNowMs, false);
    legacy("legacy milliseconds, in the future", "1750000000001", "expires at 2025-06-15 15:06:40 UTC",
           1750000000001LL, false);
    row("10 digits before 2000 is plain", "jobs.lock", "0900000000", LockFormat::PlainToken);
    row("10 digits after 2100 is plain", "jobs.lock", "4200000000", LockFormat::PlainToken);
    row("13 digits after 2100 is plain", "jobs.lock", "9999999999999", LockFormat::PlainToken);
    row("11 digits is plain", "jobs.lock", "17000000000", LockFormat::PlainToken);
    row("trailing dot is plain", "jobs.lock", "1700000000.", LockFormat::PlainToken);
    row("fraction with letters is plain", "jobs.lock", "1700000000.5x", LockFormat::PlainToken);
    row("negative time is plain", "jobs.lock", "-1700000000", LockFormat::PlainToken);
    legacy("milliseconds with a fraction drops it", "1700000000000.5", "expired at 2023-11-14 22:13:20 UTC",
           1700000000000LL, true);
    row("host:pid token", "jobs", "worker-7:4242", LockFormat::PlainToken);
    row("non-ASCII text", "jobs", "zürich-worker-1", LockFormat::PlainToken);
    row("four-byte UTF-8", "jobs", "lock-\xf0\x9f\x94\x92", LockFormat::PlainToken);
    row("single character", "jobs", "1", LockFormat::PlainToken);
    row("empty", "jobs", "", LockFormat::Unknown, {}, QStringLiteral("empty value"));
    binary("NUL bytes", QByteArray("ab\0cd", 5), 5);
    binary("32 hex with a NUL", QByteArray("3f1a9c0b7d2e4f6a8b5c1d0e9f8a7b6\0", 32), 32);
    binary("invalid UTF-8", "\xff\xfe", 2);
    binary("newline", "token\n", 6);
    binary("DEL character", "to\x7fken", 6);
    binary("overlong encoding", "\xc0\xaf", 2);
    binary("UTF-16 surrogate in UTF-8", "\xed\xa0\x80", 3);
    binary("beyond U+10FFFF", "\xf4\x90\x80\x80", 4);
    binary("C1 control", "\xc2\x85", 2);
    binary("character cut without the truncated flag", "abc\xc3", 4);
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

void TestLockFormatStrings::recognizesStrings()
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
    QCOMPARE(lock.detail(), detail);
    QCOMPARE(lock.expiresAtMs(), expiresAtMs);
    QCOMPARE(lock.expiredByTimestamp, expired);
    QVERIFY(!lock.auxiliary);
    if (value.isEmpty()) {
        QVERIFY(lock.holderList().isEmpty());
    } else {
        QCOMPARE(describeHolders(lock.holderList()), QStringList{holderText(value, owner, 1, sinceMs)});
    }
}

void TestLockFormatStrings::decodesUuid1_data()
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

void TestLockFormatStrings::decodesUuid1()
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
        QCOMPARE(lock.detail(), detail);
        QCOMPARE(lock.holderList().size(), 1);
        QCOMPARE(lock.holderList().first().sinceMs, unixMs);
    }
    const RecognizedLock text =
        LockFormatRecognizer::recognize("redlock:job", stringObservation(dashed(hex)), {}, 0);
    QCOMPARE(text.format, LockFormat::UuidToken);
    QCOMPARE(text.detail(), detail);
    // One millisecond outside the plausible window in either direction is a plain hex token.
    for (const qint64 outside : {qint64(946684799999LL), qint64(4102444800000LL)}) {
        const RecognizedLock lock = LockFormatRecognizer::recognize(
            "job", stringObservation(makeUuid1(outside, node, 0x1234, extraTicks)), {}, kNowMs);
        QCOMPARE(lock.format, LockFormat::HexToken);
        QVERIFY(lock.owner.isEmpty());
    }
}

void TestLockFormatStrings::survivesHugeValues_data()
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

void TestLockFormatStrings::survivesHugeValues()
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

// A string lock's one holder is made when asked (token, owner, a uuid1's time), not kept: a list
// of one was 96 bytes for each of a million locks. An owner rule reaches it as it reaches the lock.
void TestLockFormatStrings::aStringLockKeepsNoHolderListOfItsOwn()
{
    const qint64 madeAtMs = 1'790'000'000'000;
    const QByteArray uuid = makeUuid1(madeAtMs, 0x0242ac110002);
    const RecognizedLock pyLock = LockFormatRecognizer::recognize(
        "lock:orders", stringObservation(uuid, false, uuid.size()), {}, kNowMs);
    QCOMPARE(lockFormatName(pyLock.format), lockFormatName(LockFormat::RedisPy));
    QVERIFY(!pyLock.hasRareParts()); // its detail, too, is read from the token
    QCOMPARE(pyLock.detail(), QStringLiteral("uuid1 made 2026-09-21 14:13:20 UTC on node 02:42:ac:11:00:02"));
    QCOMPARE(pyLock.holderCount(), 1);
    QCOMPARE(describeHolders(pyLock.holderList()), QStringList{holderText(uuid, pyLock.owner, 1, madeAtMs)});

    const QList<OwnerRule> rules{
        OwnerRule{QStringLiteral("*"), QRegularExpression(QStringLiteral("^(w[0-9]+)-"))}};
    const QByteArray token("w7-0123456789abcdef");
    const RecognizedLock ruled = LockFormatRecognizer::recognize(
        "lock:orders", stringObservation(token, false, token.size()), rules, kNowMs);
    QCOMPARE(ruled.owner, QStringLiteral("w7"));
    QCOMPARE(describeHolders(ruled.holderList()),
             QStringList{holderText(token, QStringLiteral("w7"), 1, -1)});
    QVERIFY(!ruled.hasRareParts());

    const RecognizedLock empty =
        LockFormatRecognizer::recognize("lock:orders", stringObservation("", false, 0), {}, kNowMs);
    QCOMPARE(empty.holderCount(), 0);
    QVERIFY(empty.holderList().isEmpty());
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockFormatStrings)

} // namespace tst_lockformatstrings

#include "tst_lockformatstrings.moc"
