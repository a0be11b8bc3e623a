#include "bytesdisplay.h"

#include <QRandomGenerator>
#include <QTest>

using namespace lockscope;

class TestBytesDisplay : public QObject
{
    Q_OBJECT

private slots:
    void escapes_data();
    void escapes();
    void roundTripsRandomBytes();
    void rejectsBadEscapes();
};

void TestBytesDisplay::escapes_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("shown");
    QTest::newRow("plain") << QByteArray("lock:orders") << QStringLiteral("lock:orders");
    QTest::newRow("utf-8 kept") << QByteArray("verrou:caf\xc3\xa9") << QStringLiteral("verrou:caf\u00e9");
    QTest::newRow("space kept") << QByteArray("a b") << QStringLiteral("a b");
    QTest::newRow("newline") << QByteArray("a\nb") << QStringLiteral("a\\x0ab");
    QTest::newRow("nul") << QByteArray("a\0b", 3) << QStringLiteral("a\\x00b");
    QTest::newRow("invalid utf-8") << QByteArray("\xff\xfe") << QStringLiteral("\\xff\\xfe");
    QTest::newRow("truncated sequence") << QByteArray("x\xc3") << QStringLiteral("x\\xc3");
    QTest::newRow("overlong") << QByteArray("\xc0\xaf") << QStringLiteral("\\xc0\\xaf");
    QTest::newRow("backslash") << QByteArray("a\\b") << QStringLiteral("a\\\\b");
    QTest::newRow("literal backslash-x") << QByteArray("\\x41") << QStringLiteral("\\\\x41");
}

void TestBytesDisplay::escapes()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, shown);
    QCOMPARE(escapeBytes(bytes), shown);
    const Result<QByteArray> back = unescapeBytes(shown);
    QVERIFY(back.ok());
    QCOMPARE(*back, bytes);
}

void TestBytesDisplay::roundTripsRandomBytes()
{
    QRandomGenerator rng(42);
    for (int i = 0; i < 2000; ++i) {
        QByteArray b(rng.bounded(40), Qt::Uninitialized);
        for (char& c : b)
            c = char(rng.bounded(256));
        const Result<QByteArray> back = unescapeBytes(escapeBytes(b));
        QVERIFY(back.ok());
        QCOMPARE(*back, b);
    }
}

void TestBytesDisplay::rejectsBadEscapes()
{
    QVERIFY(!unescapeBytes(QStringLiteral("a\\q")).ok());
    QVERIFY(!unescapeBytes(QStringLiteral("a\\x4")).ok());
    QVERIFY(!unescapeBytes(QStringLiteral("trailing\\")).ok());
}

QTEST_GUILESS_MAIN(TestBytesDisplay)
#include "tst_bytesdisplay.moc"
