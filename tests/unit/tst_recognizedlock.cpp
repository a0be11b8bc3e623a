// SPDX-License-Identifier: Apache-2.0
// A recognised lock keeps what only some formats have behind one pointer: null for a plain token,
// compared by content, and a copy written to does not change the lock it came from.
#include "formats/recognizedlock.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_recognizedlock {

using namespace lockscope;

namespace {

RecognizedLock plainLock(const QByteArray& token)
{
    RecognizedLock lock;
    lock.format = LockFormat::HexToken;
    lock.impliedHolder = true;
    lock.token = token;
    return lock;
}

} // namespace

class TestRecognizedLock : public QObject
{
    Q_OBJECT

private slots:
    void defaultsKeepNoRareParts();
    void comparedByContentNotByPointer();
    void aCopyWrittenToLeavesTheOriginal();
    void detailsJoin();
};

void TestRecognizedLock::defaultsKeepNoRareParts()
{
    RecognizedLock lock = plainLock("0123456789abcdef0123456789abcdef");
    // Setting a rare field to its default allocates nothing.
    lock.setDetail(QString());
    lock.setExpiresAtMs(-1);
    lock.setTimestampLeftMs(-1);
    lock.setListedHolders({});
    lock.appendDetail(QString());
    QVERIFY(!lock.hasRareParts());
    QCOMPARE(lock.expiresAtMs(), qint64(-1));
    QCOMPARE(lock.timestampLeftMs(), qint64(-1));
    QVERIFY(lock.listedHolders().isEmpty());
    QVERIFY(lock.detail().isEmpty());
    QCOMPARE(lock.holderCount(), 1);

    lock.setExpiresAtMs(1'790'000'000'000);
    QVERIFY(lock.hasRareParts());
    QCOMPARE(lock.expiresAtMs(), qint64(1'790'000'000'000));
    QCOMPARE(lock.timestampLeftMs(), qint64(-1));
}

void TestRecognizedLock::comparedByContentNotByPointer()
{
    RecognizedLock a = plainLock("t");
    RecognizedLock b = plainLock("t");
    a.setDetail(QStringLiteral("binary value, 3 bytes"));
    QVERIFY(a != b);
    b.setDetail(QStringLiteral("binary value, 3 bytes"));
    QVERIFY(a == b); // two blocks, the same content
    b.setTimestampLeftMs(5);
    QVERIFY(a != b);
    b.setTimestampLeftMs(-1);
    QVERIFY(a == b); // back to the defaults: equal, though b keeps its block
    LockHolder h;
    h.id = "m1";
    a.setListedHolders({h});
    QVERIFY(a != b);
    b.setListedHolders({h});
    QVERIFY(a == b);
    b.token = "u";
    QVERIFY(a != b);
}

void TestRecognizedLock::aCopyWrittenToLeavesTheOriginal()
{
    RecognizedLock original = plainLock("t");
    original.setDetail(QStringLiteral("first"));
    original.setExpiresAtMs(1000);
    RecognizedLock copy = original;
    QVERIFY(copy == original);
    copy.setDetail(QStringLiteral("second"));
    copy.setExpiresAtMs(2000);
    QCOMPARE(original.detail(), QStringLiteral("first"));
    QCOMPARE(original.expiresAtMs(), qint64(1000));
    QCOMPARE(copy.detail(), QStringLiteral("second"));
    QCOMPARE(copy.expiresAtMs(), qint64(2000));
}

void TestRecognizedLock::detailsJoin()
{
    RecognizedLock lock;
    lock.appendDetail(QStringLiteral("read mode"));
    QCOMPARE(lock.detail(), QStringLiteral("read mode"));
    lock.appendDetail(QStringLiteral("3 of 40 entries read"));
    QCOMPARE(lock.detail(), QStringLiteral("read mode; 3 of 40 entries read"));
}

LOCKSCOPE_TEST_MAIN(TestRecognizedLock)

} // namespace tst_recognizedlock

#include "tst_recognizedlock.moc"
