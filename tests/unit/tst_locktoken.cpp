// SPDX-License-Identifier: Apache-2.0
#include "locking/locktoken.h"
#include "support/testregistry.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace tst_locktoken {

using namespace lockscope;

class TestLockToken : public QObject
{
    Q_OBJECT

private slots:
    void bareTokenIs32LowerHex();
    void ownerPrefix();
    void tokensDoNotRepeat();
    void everyBitVaries();
    void ownerIsSanitized_data();
    void ownerIsSanitized();
};

void TestLockToken::bareTokenIs32LowerHex()
{
    const QByteArray token = LockToken::generate();
    QVERIFY(
        QRegularExpression(QStringLiteral("^[0-9a-f]{32}$")).match(QString::fromLatin1(token)).hasMatch());
}

void TestLockToken::ownerPrefix()
{
    const QByteArray token = LockToken::generate(QStringLiteral("deploy@ci-7:4242"));
    QVERIFY(QRegularExpression(QStringLiteral("^deploy@ci-7:4242/[0-9a-f]{32}$"))
                .match(QString::fromLatin1(token))
                .hasMatch());
}

void TestLockToken::tokensDoNotRepeat()
{
    QSet<QByteArray> seen;
    for (int i = 0; i < 100000; ++i)
        seen.insert(LockToken::randomHex());
    QCOMPARE(seen.size(), 100000);
}

void TestLockToken::everyBitVaries()
{
    // 128 random bits: over many tokens each of the 128 bit positions is seen both set and clear
    // (a token built from fewer random bits, or a fixed part, fails this).
    QByteArray setOnce(16, '\0');
    QByteArray clearOnce(16, '\0');
    for (int i = 0; i < 2000; ++i) {
        const QByteArray bytes = QByteArray::fromHex(LockToken::randomHex());
        QCOMPARE(bytes.size(), 16);
        for (int b = 0; b < 16; ++b) {
            setOnce[b] = char(setOnce[b] | bytes[b]);
            clearOnce[b] = char(clearOnce[b] | ~bytes[b]);
        }
    }
    QCOMPARE(setOnce, QByteArray(16, '\xff'));
    QCOMPARE(clearOnce, QByteArray(16, '\xff'));
}

void TestLockToken::ownerIsSanitized_data()
{
    QTest::addColumn<QString>("owner");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plain") << QStringLiteral("ops@box:1") << QByteArray("ops@box:1");
    QTest::newRow("spaces and control") << QStringLiteral("a b\tc\nd") << QByteArray("a_b_c_d");
    QTest::newRow("escape and bell") << QStringLiteral("a\x1b[2K\x07") << QByteArray("a_[2K_");
    QTest::newRow("bidi override") << QStringLiteral("root\u202eevil") << QByteArray("root_evil");
    QTest::newRow("zero width") << QStringLiteral("a\u200bb") << QByteArray("a_b");
    QTest::newRow("trailing slashes") << QStringLiteral("team/job//") << QByteArray("team/job");
    QTest::newRow("unicode kept") << QStringLiteral("jürgen@host") << QStringLiteral("jürgen@host").toUtf8();
    QTest::newRow("long") << QString(300, QLatin1Char('x')) << QByteArray(LockToken::maxOwnerLength, 'x');
    QTest::newRow("long multibyte cut whole")
        << QString(150, QChar(0x00e9)) << QString(100, QChar(0x00e9)).toUtf8();
}

void TestLockToken::ownerIsSanitized()
{
    QFETCH(QString, owner);
    QFETCH(QByteArray, expected);
    QCOMPARE(LockToken::sanitizeOwner(owner), expected);
    // The random part is always what follows the last '/'.
    const QByteArray token = LockToken::generate(owner);
    QCOMPARE(token.left(token.lastIndexOf('/')), expected);
    QCOMPARE(token.size() - token.lastIndexOf('/') - 1, LockToken::randomHexLength);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockToken)

} // namespace tst_locktoken

#include "tst_locktoken.moc"
