// SPDX-License-Identifier: Apache-2.0
#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "support/heldview.h"
#include "support/scaledtry.h"
#include "support/testregistry.h"
#include "widgets/repaintpacer.h"

#include <QPaintEvent>
#include <QScrollBar>
#include <QTest>

namespace tst_uirepaintpacer {

using namespace lockscope;

namespace {

// Long enough that no release timer fires between two lines of a test, on any machine.
constexpr int intervalMs = 1000;

// A widget that paints a number: what the screen showed last, and how many times it was painted.
class Canvas : public QWidget
{
public:
    int value = 0;
    int painted = -1;
    int paints = 0;

protected:
    void paintEvent(QPaintEvent*) override
    {
        painted = value;
        ++paints;
    }
};

// Posted events (an update's paint among them), without waiting for any timer.
void turn()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
}

// `value` reaches the canvas the way a model's change reaches a view: paced, then an update.
void change(RepaintPacer& pacer, Canvas& canvas, int value)
{
    pacer.pace();
    canvas.value = value;
    canvas.update();
}

LockBatch slice(int from, int count)
{
    LockBatch b;
    for (int i = from; i < from + count; ++i)
        b.added << SharedLockView(test::heldNow("lock:" + QByteArray::number(i).rightJustified(6, '0'), "t"));
    return b;
}

// Shown, painted once, and the events that brought it on screen handled.
bool shown(QWidget& widget, QSize size)
{
    widget.resize(size);
    widget.show();
    if (!QTest::qWaitForWindowExposed(&widget))
        return false;
    turn();
    return true;
}

// Counts the viewport's paints that are not the countdown's (the TTL column alone).
class FullPaints : public QObject
{
public:
    explicit FullPaints(LockTableView* view) : m_view(view) { view->viewport()->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Paint &&
            !m_view->countdownRect().contains(static_cast<QPaintEvent*>(event)->rect()))
            ++count;
        return false;
    }

private:
    LockTableView* m_view;
};

} // namespace

// A table filling with 100k locks took a slice of rows each turn of the event loop and repainted
// after every one: four tenths of the GUI thread's time before the first full view went to paints
// nobody could read (#47). Changes in a burst now repaint at most once per interval; a single
// change, and anything a user does, still paints at once, and the last change is never left unpainted.
class TestUiRepaintPacer : public QObject
{
    Q_OBJECT

private slots:
    void aChangeAfterAQuietIntervalPaintsAtOnce();
    void aBurstPaintsOnceMoreWithItsLastChange();
    void inputLetsGoAtOnce();
    void aFillingTablePaintsAtTheCountdownRate();
    void scrollingAFillingTablePaintsAtOnce();
};

void TestUiRepaintPacer::aChangeAfterAQuietIntervalPaintsAtOnce()
{
    Canvas canvas;
    RepaintPacer pacer(&canvas, intervalMs);
    QVERIFY(shown(canvas, {200, 100}));
    const int before = canvas.paints;
    change(pacer, canvas, 1);
    QVERIFY(!pacer.isHolding());
    turn();
    QCOMPARE(canvas.painted, 1);
    QCOMPARE(canvas.paints, before + 1);
}

void TestUiRepaintPacer::aBurstPaintsOnceMoreWithItsLastChange()
{
    Canvas canvas;
    RepaintPacer pacer(&canvas, intervalMs);
    QVERIFY(shown(canvas, {200, 100}));
    QElapsedTimer clock;
    clock.start();
    change(pacer, canvas, 1);
    turn();
    QCOMPARE(canvas.painted, 1);
    const int afterFirst = canvas.paints;
    for (int v = 2; v <= 30; ++v) {
        change(pacer, canvas, v);
        turn();
    }
    if (clock.elapsed() < intervalMs) { // else the release came in the middle, as it should
        QVERIFY(pacer.isHolding());
        QCOMPARE(canvas.paints, afterFirst);
        QCOMPARE(canvas.painted, 1);
    }
    // Released at the interval's end: one paint, of the last value.
    QTRY_COMPARE_WITH_TIMEOUT(canvas.painted, 30, 3 * intervalMs);
    QVERIFY(!pacer.isHolding());
    QVERIFY(canvas.updatesEnabled());
    QVERIFY2(canvas.paints <= afterFirst + 1 + int(clock.elapsed() / intervalMs),
             qPrintable(QString::number(canvas.paints)));
}

void TestUiRepaintPacer::inputLetsGoAtOnce()
{
    Canvas canvas;
    RepaintPacer pacer(&canvas, intervalMs);
    QVERIFY(shown(canvas, {200, 100}));
    change(pacer, canvas, 1);
    turn();
    change(pacer, canvas, 2);
    QVERIFY(pacer.isHolding());
    QVERIFY(!canvas.updatesEnabled());
    QTest::mouseClick(&canvas, Qt::LeftButton);
    QVERIFY(!pacer.isHolding());
    QVERIFY(canvas.updatesEnabled());
    turn();
    QCOMPARE(canvas.painted, 2);
    // Right after input a burst is not held: the user's own actions paint at the screen's rate.
    change(pacer, canvas, 3);
    QVERIFY(!pacer.isHolding());
    turn();
    QCOMPARE(canvas.painted, 3);
}

void TestUiRepaintPacer::aFillingTablePaintsAtTheCountdownRate()
{
    LockTableModel model;
    LockFilterProxy proxy;
    proxy.setSourceModel(&model);
    LockTableView view;
    view.setProxy(&proxy);
    QVERIFY(shown(view, {900, 400}));
    FullPaints paints(&view);
    QElapsedTimer clock;
    clock.start();
    const int slices = 60;
    for (int i = 0; i < slices; ++i) {
        model.apply(slice(slices * 50 - (i + 1) * 50, 50)); // each slice sorts in at the top
        turn();
    }
    const qint64 fillMs = clock.elapsed();
    // The countdown's rate (100 ms), plus the first change and the last release.
    QVERIFY2(paints.count <= 2 + int(fillMs / 100),
             qPrintable(QStringLiteral("%1 paints in %2 ms").arg(paints.count).arg(fillMs)));
    // Nothing left unpainted: a fill that ended held is painted once more, whole.
    const int atEnd = paints.count;
    const bool held = !view.viewport()->updatesEnabled();
    QTRY_VERIFY_WITH_TIMEOUT(view.viewport()->updatesEnabled(), 1000);
    if (held)
        QTRY_VERIFY_WITH_TIMEOUT(paints.count > atEnd, 1000);
    QCOMPARE(proxy.index(0, LockTableModel::ResourceColumn).data().toString(), QStringLiteral("lock:000000"));
}

void TestUiRepaintPacer::scrollingAFillingTablePaintsAtOnce()
{
    LockTableModel model;
    LockFilterProxy proxy;
    proxy.setSourceModel(&model);
    model.apply(slice(0, 500));
    LockTableView view;
    view.setProxy(&proxy);
    QVERIFY(shown(view, {900, 300}));
    model.apply(slice(500, 10));
    model.apply(slice(510, 10)); // within the interval of the first: held
    QVERIFY(!view.viewport()->updatesEnabled());
    FullPaints paints(&view);
    view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum() / 2);
    QVERIFY(view.viewport()->updatesEnabled());
    view.viewport()->repaint();
    QCOMPARE(paints.count, 1);
}

LOCKSCOPE_TEST_MAIN(TestUiRepaintPacer)

} // namespace tst_uirepaintpacer

#include "tst_uirepaintpacer.moc"
