// SPDX-License-Identifier: Apache-2.0
// The window icon (#17): the application and the main window set the SVG from the ui library's
// resources. It shows only when Qt's SVG icon engine is there (the package depends on libqt6svg6,
// the set-up installs qt6-svg-dev): the icon must render at the sizes a panel and a task switcher
// ask for, with the padlock's colours, not as an empty picture.
#include "support/testregistry.h"

#include <QGuiApplication>
#include <QIcon>
#include <QImage>
#include <QPixmap>
#include <QTest>

namespace tst_uiappicon {

class TestUiAppIcon : public QObject
{
    Q_OBJECT

private slots:
    void windowIconRenders();
};

void TestUiAppIcon::windowIconRenders()
{
    const QIcon icon(QStringLiteral(":/icons/lockscope.svg"));
    QVERIFY(!icon.isNull());
    for (int size : {16, 32, 48, 256}) {
        const QImage image = icon.pixmap(size, size).toImage();
        QCOMPARE(image.size(), QSize(size, size));
        // The body of the padlock, red (#c0392b): left of its three dots, below them.
        const QColor body = image.pixelColor(size / 4, size * 52 / 64);
        QVERIFY2(body.alpha() == 255 && body.red() > 150 && body.green() < 90,
                 qPrintable(QStringLiteral("%1px: %2").arg(size).arg(body.name(QColor::HexArgb))));
    }
}

LOCKSCOPE_TEST_MAIN(TestUiAppIcon)

} // namespace tst_uiappicon

#include "tst_uiappicon.moc"
