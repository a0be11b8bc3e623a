// SPDX-License-Identifier: Apache-2.0
#include "formats/lockformatrecognizer.h"
#include "support/recognizersamples.h"
#include "support/testregistry.h"

#include <QRandomGenerator>
#include <QTest>

#include <limits>

namespace tst_lockformatrecognizer {

using namespace lockscope;
using namespace lockscope::test;

// The entry point of LockFormatRecognizer: auxiliary keys first, absent and failed reads, the owner
// rules over every family, and arbitrary bytes. Each family of formats has its own test
// (tst_lockformatstrings, tst_lockformatredisson, tst_lockformatsemaphores, tst_lockformatauxiliary).
namespace {

bool isPlausibleMs(qint64 ms)
{
    return ms >= 946684800000LL && ms < 4102444800000LL;
}

} // namespace

class TestLockFormatRecognizer : public QObject
{
    Q_OBJECT

private slots:
    void appliesOwnerRules_data();
    void appliesOwnerRules();
    void ignoresAbsentAndFailedReads_data();
    void ignoresAbsentAndFailedReads();
    void survivesArbitraryBytes();
};

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
    for (const LockHolder& h : lock.holderList())
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
            QCOMPARE(lock.holderList().size(), o.value.isEmpty() ? 0 : 1);
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
            QVERIFY(isPlausibleMs(lock.expiresAtMs()));
            break;
        case LockFormat::Redisson:
            for (const LockHolder& h : lock.holderList())
                QVERIFY(h.id.startsWith(QByteArray(kInstanceA + ':')));
            break;
        case LockFormat::Semaphore: {
            qint64 permits = 0;
            for (const LockHolder& h : lock.holderList())
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

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockFormatRecognizer)

} // namespace tst_lockformatrecognizer

#include "tst_lockformatrecognizer.moc"
