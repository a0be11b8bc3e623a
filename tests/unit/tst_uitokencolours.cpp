// SPDX-License-Identifier: Apache-2.0
#include "support/testregistry.h"
#include "widgets/statusstyle.h"

#include <QApplication>
#include <QSet>
#include <QTest>
#include <QUuid>

namespace tst_uitokencolours {

using namespace lockscope;

namespace {

QPalette themed(bool dark)
{
    QPalette p;
    p.setColor(QPalette::Base, dark ? QColor(30, 30, 30) : QColor(255, 255, 255));
    p.setColor(QPalette::Text, dark ? QColor(230, 230, 230) : QColor(20, 20, 20));
    p.setColor(QPalette::PlaceholderText, QColor(128, 128, 128));
    return p;
}

int hueDistance(int a, int b)
{
    const int d = qAbs(a - b) % 360;
    return qMin(d, 360 - d);
}

} // namespace

// Issue #20: a healthy lock drawn in red reads like an alarm. Every token colour keeps its hue well
// away from every colour that means a status (held, partial, contested, stuck) or a warning.
class TestUiTokenColours : public QObject
{
    Q_OBJECT

private slots:
    void tokenColoursAvoidStatusColours_data();
    void tokenColoursAvoidStatusColours();
    void tokenColoursAreStableAndVaried();
};

void TestUiTokenColours::tokenColoursAvoidStatusColours_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light theme") << false;
    QTest::newRow("dark theme") << true;
}

void TestUiTokenColours::tokenColoursAvoidStatusColours()
{
    QFETCH(bool, dark);
    const QPalette palette = themed(dark);
    const QList<QColor> reserved = StatusStyle::reservedColors(palette);
    QCOMPARE(StatusStyle::isDark(palette), dark);
    QVERIFY(reserved.size() >= 5);
    constexpr int minimumHueDistance = 40;
    QList<QByteArray> tokens;
    for (int i = 0; i < 2000; ++i)
        tokens << QUuid::createUuid().toByteArray(QUuid::WithoutBraces) << QByteArray::number(i)
               << "worker-" + QByteArray::number(i) + ":" + QByteArray::number(i * 7919);
    for (const QByteArray& token : std::as_const(tokens)) {
        const QColor c = StatusStyle::tokenColor(token, palette);
        QVERIFY2(c.hslHue() >= 0, token.constData()); // a colour, not a grey that reads as "unknown"
        for (const QColor& r : reserved) {
            if (r.hslHue() < 0)
                continue; // grey: no hue to keep away from
            QVERIFY2(hueDistance(c.hslHue(), r.hslHue()) >= minimumHueDistance,
                     qPrintable(QStringLiteral("token %1 has hue %2, %3 degrees from the status colour %4")
                                    .arg(QString::fromLatin1(token))
                                    .arg(c.hslHue())
                                    .arg(hueDistance(c.hslHue(), r.hslHue()))
                                    .arg(r.name())));
        }
    }
}

void TestUiTokenColours::tokenColoursAreStableAndVaried()
{
    const QPalette palette = themed(false);
    QSet<QRgb> seen;
    for (int i = 0; i < 500; ++i) {
        const QByteArray token = "tok-" + QByteArray::number(i);
        QCOMPARE(StatusStyle::tokenColor(token, palette), StatusStyle::tokenColor(token, palette));
        seen.insert(StatusStyle::tokenColor(token, palette).rgb());
    }
    // Enough colours that a handful of holders of one resource are told apart.
    QVERIFY2(seen.size() >= 8, qPrintable(QString::number(seen.size())));
    // And any two of them look different: a clearly other hue, or a clearly other lightness (two
    // blues 18 degrees apart at one lightness read as one token in a contested lock's diagram).
    const QList<QRgb> colours(seen.cbegin(), seen.cend());
    for (int i = 0; i < colours.size(); ++i)
        for (int j = i + 1; j < colours.size(); ++j) {
            const QColor a = QColor::fromRgb(colours.at(i));
            const QColor b = QColor::fromRgb(colours.at(j));
            const bool otherHue = hueDistance(a.hslHue(), b.hslHue()) >= 30;
            const bool otherLightness = qAbs(a.lightness() - b.lightness()) >= 35;
            QVERIFY2(otherHue || otherLightness, qPrintable(a.name() + QStringLiteral(" vs ") + b.name()));
        }
}

LOCKSCOPE_TEST_MAIN(TestUiTokenColours)

} // namespace tst_uitokencolours

#include "tst_uitokencolours.moc"
