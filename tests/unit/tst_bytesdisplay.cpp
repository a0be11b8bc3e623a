// SPDX-License-Identifier: Apache-2.0
#include "base/bytesdisplay.h"
#include "support/testregistry.h"

#include <QList>
#include <QRandomGenerator>
#include <QTest>

namespace tst_bytesdisplay {

using namespace lockscope;

class TestBytesDisplay : public QObject
{
    Q_OBJECT

private slots:
    void escapes_data();
    void escapes();
    void roundTripsRandomBytes();
    void asciiEscapesByteForByte();
    void showsNothingHidden();
    void rejectsBadEscapes();
    void textIsEscapedAsItsBytesWouldBe();
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
    // What a hostile key, token or error text would use against a terminal or a label.
    QTest::newRow("esc csi") << QByteArray("a\x1b[2K\rb") << QStringLiteral("a\\x1b[2K\\x0db");
    QTest::newRow("bel") << QByteArray("\x07") << QStringLiteral("\\x07");
    QTest::newRow("del") << QByteArray("\x7f") << QStringLiteral("\\x7f");
    QTest::newRow("c1 csi") << QByteArray("\xc2\x9b"
                                          "2K")
                            << QStringLiteral("\\xc2\\x9b2K");
    QTest::newRow("c1 nel") << QByteArray("\xc2\x85") << QStringLiteral("\\xc2\\x85");
    QTest::newRow("rlo U+202E") << QByteArray("lock:\xe2\x80\xaetxt.exe")
                                << QStringLiteral("lock:\\xe2\\x80\\xaetxt.exe");
    QTest::newRow("lre U+202A") << QByteArray("\xe2\x80\xaa") << QStringLiteral("\\xe2\\x80\\xaa");
    QTest::newRow("pdf U+202C") << QByteArray("\xe2\x80\xac") << QStringLiteral("\\xe2\\x80\\xac");
    QTest::newRow("lri U+2066") << QByteArray("\xe2\x81\xa6") << QStringLiteral("\\xe2\\x81\\xa6");
    QTest::newRow("pdi U+2069") << QByteArray("\xe2\x81\xa9") << QStringLiteral("\\xe2\\x81\\xa9");
    QTest::newRow("rlm U+200F") << QByteArray("\xe2\x80\x8f") << QStringLiteral("\\xe2\\x80\\x8f");
    QTest::newRow("alm U+061C") << QByteArray("\xd8\x9c") << QStringLiteral("\\xd8\\x9c");
    QTest::newRow("zero width space") << QByteArray("a\xe2\x80\x8b"
                                                    "b")
                                      << QStringLiteral("a\\xe2\\x80\\x8bb");
    QTest::newRow("zwj") << QByteArray("\xe2\x80\x8d") << QStringLiteral("\\xe2\\x80\\x8d");
    QTest::newRow("bom") << QByteArray("\xef\xbb\xbf") << QStringLiteral("\\xef\\xbb\\xbf");
    QTest::newRow("line separator") << QByteArray("\xe2\x80\xa8") << QStringLiteral("\\xe2\\x80\\xa8");
    QTest::newRow("paragraph separator") << QByteArray("\xe2\x80\xa9") << QStringLiteral("\\xe2\\x80\\xa9");
    QTest::newRow("no-break space") << QByteArray("a\xc2\xa0"
                                                  "b")
                                    << QStringLiteral("a\\xc2\\xa0b");
    QTest::newRow("ideographic space") << QByteArray("\xe3\x80\x80") << QStringLiteral("\\xe3\\x80\\x80");
    QTest::newRow("soft hyphen") << QByteArray("\xc2\xad") << QStringLiteral("\\xc2\\xad");
    QTest::newRow("hangul filler") << QByteArray("\xe3\x85\xa4") << QStringLiteral("\\xe3\\x85\\xa4");
    QTest::newRow("variation selector") << QByteArray("\xef\xb8\x8f") << QStringLiteral("\\xef\\xb8\\x8f");
    QTest::newRow("tag character") << QByteArray("\xf3\xa0\x80\x81")
                                   << QStringLiteral("\\xf3\\xa0\\x80\\x81");
    QTest::newRow("noncharacter") << QByteArray("\xef\xbf\xbf") << QStringLiteral("\\xef\\xbf\\xbf");
    QTest::newRow("private use kept") << QByteArray("\xee\x80\x80") << QStringLiteral("\ue000");
    QTest::newRow("arabic kept") << QByteArray("\xd9\x82\xd9\x81\xd9\x84")
                                 << QStringLiteral("\u0642\u0641\u0644");
    QTest::newRow("combining accent kept") << QByteArray("e\xcc\x81") << QStringLiteral("e\u0301");
    QTest::newRow("emoji kept") << QByteArray("\xf0\x9f\x94\x92") << QStringLiteral("\U0001F512");
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

// Below 0x80 each byte stands for itself: a control or DEL as \\xNN, a backslash doubled, the rest as
// it is (the in-place path most keys and tokens take).
void TestBytesDisplay::asciiEscapesByteForByte()
{
    QRandomGenerator rng(7);
    for (int i = 0; i < 2000; ++i) {
        QByteArray b(rng.bounded(40), Qt::Uninitialized);
        for (char& c : b)
            c = char(rng.bounded(128));
        QString expected;
        for (const char c : b) {
            if (c < 0x20 || c == 0x7f)
                expected += QStringLiteral("\\x%1").arg(int(uchar(c)), 2, 16, QLatin1Char('0'));
            else if (c == '\\')
                expected += QStringLiteral("\\\\");
            else
                expected += QLatin1Char(c);
        }
        QCOMPARE(escapeBytes(b), expected);
    }
}

// Whatever the bytes, the shown text has no character that a terminal or a label would not draw
// as itself.
void TestBytesDisplay::showsNothingHidden()
{
    QRandomGenerator rng(7);
    for (int i = 0; i < 2000; ++i) {
        // Random code points, UTF-8 encoded, so that the multi-byte paths are exercised too.
        QString text;
        for (int k = rng.bounded(12); k > 0; --k) {
            const char32_t cp = rng.bounded(4) == 0 ? rng.bounded(0x10ffff) : rng.bounded(0x3000);
            if (cp >= 0xd800 && cp < 0xe000)
                continue;
            text += QString::fromUcs4(&cp, 1);
        }
        const QString shown = escapeBytes(text.toUtf8());
        for (const char32_t cp : shown.toUcs4()) {
            const QChar::Category cat = QChar::category(cp);
            QVERIFY2(cp >= 0x20 && !(cp >= 0x7f && cp < 0xa0) && cat != QChar::Other_Format &&
                         cat != QChar::Other_Control && cat != QChar::Separator_Line &&
                         cat != QChar::Separator_Paragraph && cat != QChar::Other_NotAssigned &&
                         (cat != QChar::Separator_Space || cp == 0x20),
                     qPrintable(QStringLiteral("U+%1 shown raw").arg(quint32(cp), 4, 16, QLatin1Char('0'))));
        }
        QCOMPARE(*unescapeBytes(shown), text.toUtf8());
    }
}

void TestBytesDisplay::rejectsBadEscapes()
{
    QVERIFY(!unescapeBytes(QStringLiteral("a\\q")).ok());
    QVERIFY(!unescapeBytes(QStringLiteral("a\\x4")).ok());
    QVERIFY(!unescapeBytes(QStringLiteral("trailing\\")).ok());
}

void TestBytesDisplay::textIsEscapedAsItsBytesWouldBe()
{
    // escapeText is for text kept from earlier (a recording): what it shows of a text without
    // backslashes is what escapeBytes shows of its UTF-8, and text already escaped stays as it is.
    QRandomGenerator rng(39);
    for (int round = 0; round < 2000; ++round) {
        QString text;
        for (int i = 0; i < 16; ++i) {
            const char32_t cp = rng.bounded(4) == 0 ? rng.bounded(0x10ffff) : rng.bounded(0x3000);
            if ((cp >= 0xd800 && cp < 0xe000) || cp == '\\')
                continue;
            text += QString::fromUcs4(&cp, 1);
        }
        QCOMPARE(escapeText(text), escapeBytes(text.toUtf8()));
        QCOMPARE(escapeText(escapeBytes(text.toUtf8())), escapeBytes(text.toUtf8()));
    }
    QCOMPARE(escapeText(QStringLiteral("a\\x1b\\\\b")), QStringLiteral("a\\x1b\\\\b"));
    // A lone surrogate (what a file's invalid UTF-16 can give) is not shown raw either.
    const QString lone = QStringLiteral("a") + QChar(0xd800) + QStringLiteral("b");
    QVERIFY(!escapeText(lone).contains(QChar(0xd800)));
    QVERIFY(escapeText(lone).startsWith(QStringLiteral("a\\x")));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestBytesDisplay)

} // namespace tst_bytesdisplay

#include "tst_bytesdisplay.moc"
