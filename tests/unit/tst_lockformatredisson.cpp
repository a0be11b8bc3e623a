// SPDX-License-Identifier: Apache-2.0
#include "formats/lockformatrecognizer.h"
#include "support/recognizersamples.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_lockformatredisson {

using namespace lockscope;
using namespace lockscope::test;

// The Redisson family of LockFormatRecognizer (formats/redissonformats): locks and read-write locks
// kept as hashes of holders, and hashes of no known shape.
namespace {

QString threadOf(const QByteArray& thread, const QByteArray& instance)
{
    return QStringLiteral("thread %1 of %2").arg(QString::fromLatin1(thread), QString::fromLatin1(instance));
}

} // namespace

class TestLockFormatRedisson : public QObject
{
    Q_OBJECT

private slots:
    void recognizesHashes_data();
    void recognizesHashes();
    void survivesHugeHashes();
};

void TestLockFormatRedisson::recognizesHashes_data()
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
    const QString writerA = ownerA + QStringLiteral(" (write)");
    const QString twoHolders = QStringLiteral("2 holders");

    // Every field read (the hash was not cut at the read limit).
    auto whole = [](const char* name, const QByteArrayList& fields, LockFormat format,
                    const QByteArray& token, const QString& owner, const QString& detail,
                    const QStringList& holders) {
        QTest::newRow(name) << fields << false << qint64(-1) << int(format) << token << owner << detail
                            << holders;
    };
    // A hash that is no Redisson lock: its sorted field names are the token.
    auto foreign = [&](const char* name, const QByteArrayList& fields, const QByteArray& token) {
        whole(name, fields, LockFormat::Unknown, token, {}, QStringLiteral("hash of unknown shape"), {});
    };

    whole("redisson: one holder", {a57, "1"}, LockFormat::Redisson, a57, ownerA, {},
          {holderText(a57, ownerA)});
    whole("redisson: re-entered three times", {a57, "3"}, LockFormat::Redisson, a57, ownerA, {},
          {holderText(a57, ownerA, 3)});
    whole("redisson: long thread id", {kInstanceA + ":9223372036854775807", "1"}, LockFormat::Redisson,
          kInstanceA + ":9223372036854775807", threadOf("9223372036854775807", kInstanceA), {},
          {holderText(kInstanceA + ":9223372036854775807", threadOf("9223372036854775807", kInstanceA))});
    whole("redisson: two holders sorted into the token", {a57, "1", b12, "2"}, LockFormat::Redisson,
          b12 + ',' + a57, twoHolders, {}, {holderText(b12, ownerB, 2), holderText(a57, ownerA)});
    QTest::newRow("redisson: fields cut at the limit")
        << QByteArrayList{a57, "1"} << true << qint64(300) << int(LockFormat::Redisson) << a57 << ownerA
        << QStringLiteral("1 of 300 entries read") << QStringList{holderText(a57, ownerA)};
    whole("read-write: two readers", {"mode", "read", a57, "1", b12, "4"}, LockFormat::RedissonReadWrite,
          b12 + ',' + a57, twoHolders, QStringLiteral("read mode"),
          {holderText(b12, ownerB, 4), holderText(a57, ownerA)});
    whole("read-write: writer", {"mode", "write", aWrite, "1"}, LockFormat::RedissonReadWrite, aWrite,
          writerA, QStringLiteral("write mode"), {holderText(aWrite, writerA)});
    whole("read-write: writer that also reads", {aWrite, "1", "mode", "write", a57, "2"},
          LockFormat::RedissonReadWrite, a57 + ',' + aWrite, twoHolders, QStringLiteral("write mode"),
          {holderText(a57, ownerA, 2), holderText(aWrite, writerA)});
    whole("read-write: mode alone", {"mode", "read"}, LockFormat::RedissonReadWrite, {}, {},
          QStringLiteral("read mode"), {});
    foreign(":write field without a mode is unknown", {aWrite, "1"}, aWrite);
    foreign("unknown mode", {"mode", "exclusive", a57, "1"}, a57 + ",mode");
    foreign("field without thread id", {kInstanceA + ":", "1"}, kInstanceA + ":");
    foreign("field with a short uuid", {"8f3c2a1e-5b7d-4c9e-a1f2-3b4c5d6e7f8:57", "1"},
            "8f3c2a1e-5b7d-4c9e-a1f2-3b4c5d6e7f8:57");
    foreign("non-integer count", {a57, "one"}, a57);
    foreign("negative count", {a57, "-1"}, a57);
    foreign("one foreign field spoils the shape", {a57, "1", "owner", "bob"}, a57 + ",owner");
    QTest::newRow("binary field names")
        << QByteArrayList{QByteArray("\0\xff", 2), QByteArray("\x80", 1)} << true << qint64(9)
        << int(LockFormat::Unknown) << QByteArray("\0\xff", 2) << QString()
        << QStringLiteral("hash of unknown shape; 1 of 9 entries read") << QStringList();
    QTest::newRow("no fields read") << QByteArrayList{} << true << qint64(5) << int(LockFormat::Unknown)
                                    << QByteArray() << QString()
                                    << QStringLiteral("empty hash; 0 of 5 entries read") << QStringList();
}

void TestLockFormatRedisson::recognizesHashes()
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
    QCOMPARE(describeLock(lock), expectedLock(LockFormat(format), token, owner, detail, holders));
    QCOMPARE(lock.expiresAtMs(), qint64(-1));
}

void TestLockFormatRedisson::survivesHugeHashes()
{
    const int n = 100000;
    QByteArrayList fields;
    for (int i = 0; i < n; ++i)
        fields << kInstanceA + ':' + QByteArray::number(i) << QByteArray::number(i % 7 + 1);
    const RecognizedLock redisson =
        LockFormatRecognizer::recognize("orders", hashObservation(fields), {}, kNowMs);
    QCOMPARE(redisson.format, LockFormat::Redisson);
    QCOMPARE(redisson.holderList().size(), n);
    QCOMPARE(redisson.owner, QStringLiteral("%1 holders").arg(n));

    fields.last() = "junk";
    QCOMPARE(LockFormatRecognizer::recognize("orders", hashObservation(fields), {}, kNowMs).format,
             LockFormat::Unknown);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockFormatRedisson)

} // namespace tst_lockformatredisson

#include "tst_lockformatredisson.moc"
