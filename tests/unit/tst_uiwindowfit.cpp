// SPDX-License-Identifier: Apache-2.0
#include "support/testregistry.h"
#include "window/windowfit.h"

#include <QApplication>
#include <QScreen>
#include <QStyle>
#include <QTest>
#include <QWidget>

namespace tst_uiwindowfit {

using namespace lockscope;

// Issue #41: from the second launch the saved geometry put the title bar above the screen's top
// edge. A geometry is the client area's; the frame goes around it, title bar on top.
class TestUiWindowFit : public QObject
{
    Q_OBJECT

private slots:
    void aClientAtTheTopEdgeMovesDownByItsTitleBar();
    void aWindowThatFitsStaysWhereItIs();
    void aWindowPastTheEdgesComesBackWhole();
};

namespace {

QRect available()
{
    return QGuiApplication::primaryScreen()->availableGeometry();
}

int titleBar(QWidget* w)
{
    return w->style()->pixelMetric(QStyle::PM_TitleBarHeight, nullptr, w);
}

} // namespace

void TestUiWindowFit::aClientAtTheTopEdgeMovesDownByItsTitleBar()
{
    QWidget window;
    // What restoreGeometry() leaves before the window manager has framed the window.
    window.setGeometry(QRect(available().topLeft() + QPoint(40, 0), QSize(400, 300)));
    WindowFit::fit(&window);
    QVERIFY2(window.geometry().top() >= available().top() + titleBar(&window),
             qPrintable(QStringLiteral("client at y %1, title bar %2")
                            .arg(window.geometry().top())
                            .arg(titleBar(&window))));
    QCOMPARE(window.geometry().left(), available().left() + 40);
    QCOMPARE(window.size(), QSize(400, 300));
}

void TestUiWindowFit::aWindowThatFitsStaysWhereItIs()
{
    QWidget window;
    const QRect where(available().topLeft() + QPoint(100, 120), QSize(400, 300));
    window.setGeometry(where);
    WindowFit::fit(&window);
    QCOMPARE(window.geometry(), where);
}

void TestUiWindowFit::aWindowPastTheEdgesComesBackWhole()
{
    QWidget window;
    window.setGeometry(
        QRect(available().topLeft() + QPoint(available().width() - 100, available().height() - 50),
              available().size() + QSize(200, 200)));
    WindowFit::fit(&window);
    const QRect client = window.geometry();
    QVERIFY(available().contains(client));
    QVERIFY(client.top() >= available().top() + titleBar(&window));
}

LOCKSCOPE_TEST_MAIN(TestUiWindowFit)

} // namespace tst_uiwindowfit

#include "tst_uiwindowfit.moc"
