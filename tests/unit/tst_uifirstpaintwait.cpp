// SPDX-License-Identifier: Apache-2.0
#include "support/testregistry.h"
#include "window/firstpaintwait.h"

#include <QElapsedTimer>
#include <QEvent>
#include <QTest>
#include <QWidget>

namespace tst_uifirstpaintwait {

using namespace lockscope;

// The window opens its masters once it has been painted (FirstPaintWait): its first paint done
// beside five masters' first scans at full speed froze it for up to 80 ms.
class TestUiFirstPaintWait : public QObject
{
    Q_OBJECT

private slots:
    void aShownWindowWaitsForItsFirstPaint();
    void aWindowNotShownWaitsForNothing();
    void aWindowNeverPaintedWaitsNoLongerThanTheLimit();
    void workWhoseContextWentDoesNotRun();
    void workAfterTheWaitRunsAtOnce();
};

namespace {

// Counts the paint events a widget received.
class PaintCounter final : public QWidget
{
public:
    int paints = 0;

protected:
    bool event(QEvent* e) override
    {
        if (e->type() == QEvent::Paint)
            ++paints;
        return QWidget::event(e);
    }
};

} // namespace

void TestUiFirstPaintWait::aShownWindowWaitsForItsFirstPaint()
{
    PaintCounter window;
    window.resize(300, 200);
    auto* wait = new FirstPaintWait(&window, 600000); // the paint ends it, not the limit
    window.show();
    int paintsWhenRun = -1;
    wait->then(&window, [&] { paintsWhenRun = window.paints; });
    QCOMPARE(paintsWhenRun, -1); // not before the event loop has turned
    QTRY_VERIFY_WITH_TIMEOUT(wait->isOver(), 5000);
    QCOMPARE(paintsWhenRun, 1); // after the paint, the same one the window got first
}

void TestUiFirstPaintWait::aWindowNotShownWaitsForNothing()
{
    PaintCounter window;
    auto* wait = new FirstPaintWait(&window);
    bool ran = false;
    wait->then(&window, [&] { ran = true; });
    QElapsedTimer clock;
    clock.start();
    QTRY_VERIFY_WITH_TIMEOUT(ran, 5000);
    QVERIFY2(clock.elapsed() < FirstPaintWait::holdLimitMs, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(window.paints, 0);
}

void TestUiFirstPaintWait::aWindowNeverPaintedWaitsNoLongerThanTheLimit()
{
    // Shown, never painted (as a window on a desktop nobody looks at, which is never exposed).
    PaintCounter window;
    window.setUpdatesEnabled(false);
    auto* wait = new FirstPaintWait(&window);
    window.show();
    QVERIFY(window.isVisible());
    bool ran = false;
    wait->then(&window, [&] { ran = true; });
    QElapsedTimer clock;
    clock.start();
    QTRY_VERIFY_WITH_TIMEOUT(ran, 5000);
    QVERIFY2(clock.elapsed() >= FirstPaintWait::holdLimitMs - 20,
             qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(window.paints, 0);
}

void TestUiFirstPaintWait::workWhoseContextWentDoesNotRun()
{
    PaintCounter window;
    auto* wait = new FirstPaintWait(&window);
    auto* context = new QObject;
    bool ran = false, other = false;
    wait->then(context, [&] { ran = true; });
    wait->then(&window, [&] { other = true; });
    delete context; // a core replaced before the window was painted
    QTRY_VERIFY_WITH_TIMEOUT(other, 5000);
    QVERIFY(!ran);
}

void TestUiFirstPaintWait::workAfterTheWaitRunsAtOnce()
{
    PaintCounter window;
    auto* wait = new FirstPaintWait(&window);
    QTRY_VERIFY_WITH_TIMEOUT(wait->isOver(), 5000);
    bool ran = false;
    wait->then(&window, [&] { ran = true; });
    QVERIFY(ran); // a core made after the first paint opens its masters with no delay
}

LOCKSCOPE_TEST_MAIN(TestUiFirstPaintWait)

} // namespace tst_uifirstpaintwait

#include "tst_uifirstpaintwait.moc"
