// SPDX-License-Identifier: Apache-2.0
#include "support/offscreenscreen.h"
#include "support/primaryscreen.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "support/testsettings.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QScreen>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uiwindowscreen {

using namespace lockscope;
using namespace lockscope::test;

namespace {

const QSize screenSize(1366, 768);

LockScopeConfig configFor(RedisServerGroup& group)
{
    LockScopeConfig config;
    config.masters = group.connectionOptions(1000);
    config.monitor.pollIntervalMs = 200;
    return config;
}

QString rectText(const QRect& r)
{
    return QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

} // namespace

// The window on a laptop screen (1366x768): it must open within the screen's available geometry,
// whatever size it would like and whatever geometry the settings remember.
class TestUiWindowScreen : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void opensWithinTheScreen();
    void restoredGeometryLargerThanTheScreenIsFitted();
    void restoredGeometryOffTheScreenIsBroughtBack();

private:
    void verifyOnScreen(const QByteArray& savedGeometry);

    QTemporaryDir m_dir;
};

void TestUiWindowScreen::initTestCase()
{
    QVERIFY(m_dir.isValid());
    nameTestApplication(QStringLiteral("tst_uiwindowscreen"));
    if (!primaryScreenIs(screenSize))
        QSKIP("needs the offscreen platform with a 1366x768 screen");
}

void TestUiWindowScreen::init()
{
    QSettings().clear();
}

void TestUiWindowScreen::verifyOnScreen(const QByteArray& savedGeometry)
{
    if (!savedGeometry.isEmpty())
        QSettings().setValue(QStringLiteral("window/geometry"), savedGeometry);
    RedisServerGroup group;
    QVERIFY2(group.start(5), qPrintable(group.errorString()));
    MainWindow window(configFor(group), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QRect available = window.screen()->availableGeometry();
    QVERIFY2(available.contains(window.frameGeometry()),
             qPrintable(QStringLiteral("frame %1, available %2")
                            .arg(rectText(window.frameGeometry()), rectText(available))));
    // And it is not merely tiny: it takes most of such a screen.
    QVERIFY(window.width() >= available.width() * 3 / 4);
    QVERIFY(window.height() >= available.height() * 3 / 4);
    // Its layout does not insist on more than the screen either.
    QVERIFY2(window.minimumSizeHint().height() <= available.height(),
             qPrintable(QString::number(window.minimumSizeHint().height())));
}

void TestUiWindowScreen::opensWithinTheScreen()
{
    verifyOnScreen({}); // first start: the default size is made for a 1440x900 screen or larger
}

void TestUiWindowScreen::restoredGeometryLargerThanTheScreenIsFitted()
{
    QWidget big;
    big.setGeometry(40, 60, 2400, 1500); // saved on a large monitor
    verifyOnScreen(big.saveGeometry());
}

void TestUiWindowScreen::restoredGeometryOffTheScreenIsBroughtBack()
{
    QWidget away;
    away.setGeometry(3000, 1800, 1200, 700); // on a second monitor that is gone now
    verifyOnScreen(away.saveGeometry());
}

LOCKSCOPE_TEST_MAIN_ON_SCREEN(TestUiWindowScreen, screenSize)

} // namespace tst_uiwindowscreen

#include "tst_uiwindowscreen.moc"
