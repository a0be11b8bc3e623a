// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "support/testregistry.h"

#include <QPaintEvent>
#include <QSignalSpy>
#include <QTest>

namespace tst_uicountdown {

using namespace lockscope;

namespace {

LockView lockWithValidity(const QByteArray& resource, qint64 validityMs)
{
    LockView v;
    v.resource = resource;
    v.status = LockStatus::Held;
    v.token = "t";
    v.holding = 3;
    v.needed = 2;
    v.total = 3;
    v.validityMs = validityMs;
    v.computedAtMs = monotonicMs();
    v.holders = {0, 1, 2};
    v.observations.resize(3);
    return v;
}

// Records where the viewport is repainted.
class PaintRecorder : public QObject
{
public:
    QList<QRect> rects;
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            rects << static_cast<QPaintEvent*>(event)->rect();
        return false;
    }
};

double seconds(const QString& ttl)
{
    return QString(ttl).remove(QStringLiteral(" s")).toDouble();
}

} // namespace

class TestUiCountdown : public QObject
{
    Q_OBJECT

private slots:
    void ttlCountsDownWithoutModelSignals();
    void onlyTheTtlColumnIsRepainted();
};

void TestUiCountdown::ttlCountsDownWithoutModelSignals()
{
    LockTableModel model;
    LockFilterProxy proxy;
    proxy.setSourceModel(&model);
    LockBatch b;
    b.added << SharedLockView(lockWithValidity("lock:tick", 30000));
    model.apply(b);
    QSignalSpy sourceChanged(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy proxyChanged(&proxy, &QAbstractItemModel::dataChanged);

    const QModelIndex ttl = proxy.index(0, LockTableModel::TtlColumn);
    const double first = seconds(ttl.data().toString());
    QVERIFY2(first > 29.0 && first <= 30.0, qPrintable(ttl.data().toString()));
    // Tenths of a second: the text moves within a few hundred milliseconds, by itself.
    QTRY_VERIFY_WITH_TIMEOUT(seconds(ttl.data().toString()) <= first - 0.2, 2000);
    const double later = seconds(ttl.data().toString());
    QVERIFY(later > 28.0);
    QCOMPARE(sourceChanged.count(), 0);
    QCOMPARE(proxyChanged.count(), 0);
}

void TestUiCountdown::onlyTheTtlColumnIsRepainted()
{
    LockTableModel model;
    LockFilterProxy proxy;
    proxy.setSourceModel(&model);
    LockBatch b;
    for (int i = 0; i < 20; ++i)
        b.added << SharedLockView(lockWithValidity("lock:" + QByteArray::number(i), 10000 + i * 1000));
    model.apply(b);
    LockTableView view;
    view.setProxy(&proxy);
    view.resize(900, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy ticks(&view, &LockTableView::countdownTicked);
    QVERIFY(ticks.wait(int(lockscope::test::upperBoundMs(1000)))); // past the first full paint
    PaintRecorder recorder;
    view.viewport()->installEventFilter(&recorder);
    QTRY_VERIFY_WITH_TIMEOUT(recorder.rects.size() >= 3, 3000);
    const QRect ttlColumn = view.countdownRect();
    QVERIFY(ttlColumn.width() > 0);
    for (const QRect& r : std::as_const(recorder.rects))
        QVERIFY2(ttlColumn.contains(r),
                 qPrintable(QStringLiteral("repainted %1,%2 %3x%4 outside the TTL column")
                                .arg(r.x())
                                .arg(r.y())
                                .arg(r.width())
                                .arg(r.height())));
}

LOCKSCOPE_TEST_MAIN(TestUiCountdown)

} // namespace tst_uicountdown

#include "tst_uicountdown.moc"
