// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"
#include "support/testregistry.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

namespace tst_uilocktablemodel {

using namespace lockscope;

namespace {

LockView makeView(const QByteArray& resource, LockStatus status, qint64 validityMs, int holding = 3,
                  const QByteArray& token = "tok")
{
    LockView v;
    v.resource = resource;
    v.status = status;
    v.token = token;
    v.owner = QStringLiteral("owner of ") + QString::fromUtf8(resource);
    v.holding = holding;
    v.needed = 3;
    v.total = 5;
    v.validityMs = validityMs;
    v.computedAtMs = monotonicMs();
    v.observations.resize(5);
    for (int i = 0; i < holding; ++i) {
        v.holders << i;
        KeyObservation key;
        key.present = true;
        RecognizedLock lock;
        lock.token = token;
        v.observations[i] = MasterObservation(key, lock);
    }
    return v;
}

LockBatch added(const QList<LockView>& views)
{
    LockBatch b;
    for (const LockView& v : views)
        b.added << SharedLockView(v);
    return b;
}

QByteArrayList proxyResources(const LockFilterProxy& proxy)
{
    QByteArrayList out;
    for (int r = 0; r < proxy.rowCount(); ++r)
        out << proxy.index(r, 0).data(LockTableModel::ResourceRole).toByteArray();
    return out;
}

const LockStatus statuses[] = {LockStatus::Held, LockStatus::Partial, LockStatus::Contested,
                               LockStatus::Stuck, LockStatus::Unknown};

LockView randomView(QRandomGenerator& rng, const QByteArray& key)
{
    // Validities are 600 s, 700 s, ... and "expiring soon" means 10 s: nothing crosses it during
    // the test, so the brute force and the proxy judge time the same way.
    const LockStatus s = statuses[rng.bounded(5)];
    return makeView(key, s, s == LockStatus::Stuck ? -1 : 600000 + 100000 * rng.bounded(10), rng.bounded(6));
}

// Up to 20 changes or removals of known resources and up to `maxAdds` new ones among r0..r2999,
// one batch naming a resource once, as the monitor does; `truth` follows.
LockBatch randomBatch(QRandomGenerator& rng, QHash<QByteArray, LockView>& truth, int maxAdds)
{
    LockBatch b;
    QSet<QByteArray> touched;
    QList<QByteArray> keys = truth.keys();
    for (int i = 0; i < 20 && !keys.isEmpty(); ++i) {
        const QByteArray key = keys.takeAt(rng.bounded(int(keys.size())));
        touched.insert(key);
        if (rng.bounded(2)) {
            b.removed << key;
            truth.remove(key);
        } else {
            truth[key] = randomView(rng, key);
            b.changed << SharedLockView(truth[key]);
        }
    }
    const int adds = rng.bounded(maxAdds);
    for (int i = 0; i < adds; ++i) {
        const QByteArray key = "r" + QByteArray::number(rng.bounded(3000));
        if (truth.contains(key) || touched.contains(key))
            continue;
        truth.insert(key, randomView(rng, key));
        b.added << SharedLockView(truth[key]);
    }
    return b;
}

// A model and its proxy, both under QAbstractItemModelTester for everything a test does to them.
struct Fixture
{
    Fixture()
    {
        proxy.setSourceModel(&model);
        model.setMasterNames({"m1", "m2", "m3", "m4", "m5"});
    }
    LockTableModel model;
    LockFilterProxy proxy;
    QAbstractItemModelTester sourceTester{&model, QAbstractItemModelTester::FailureReportingMode::QtTest};
    QAbstractItemModelTester proxyTester{&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest};
};

// Each round of the event loop runs one slice of a filter change.
void runSlicesToTheEnd(const LockFilterProxy& proxy)
{
    for (int rounds = 0; proxy.isFiltering() && rounds < 1000000; ++rounds)
        QCoreApplication::processEvents();
    QVERIFY(!proxy.isFiltering());
}

// The proxy's rows are exactly the rows its shown filter accepts, in the model's raw order.
void compareWithBruteForce(const Fixture& f)
{
    const qint64 now = monotonicMs();
    QList<int> expected;
    for (int r = 0; r < f.model.rowCount(); ++r)
        if (f.proxy.acceptsSourceRow(r, now))
            expected << r;
    const int column = f.proxy.sortColumn();
    const bool ascending = f.proxy.sortOrder() == Qt::AscendingOrder;
    std::stable_sort(expected.begin(), expected.end(), [&](int a, int b) {
        if (column < 0)
            return a < b;
        return ascending ? f.model.lessThan(a, b, column) : f.model.lessThan(b, a, column);
    });
    QCOMPARE(f.proxy.rowCount(), int(expected.size()));
    for (int p = 0; p < expected.size(); ++p)
        QCOMPARE(f.proxy.mapToSource(f.proxy.index(p, 0)).row(), expected.at(p));
}

} // namespace

class TestUiLockTableModel : public QObject
{
    Q_OBJECT

private slots:
    void batchesUpdateRowsWithoutReset();
    void changesAreCoalesced();
    void sortsOnRawValuesNotText();
    void statusFilters_data();
    void statusFilters();
    void textAndGlobFilter();
    void expiringSoonFollowsTheClock();
    void selectionSurvivesRefreshAndReorder();
    void randomBatchesMatchBruteForce();
    void resourcesByRowAreTheShownViewsOwn();
    void slicedFilteringMatchesBruteForce();
    void typingCancelsThePassUnderWay();
    void bigFilterChangeLeavesTheEventLoopBetweenSlices();
    void bigFilterChangeIsShownWithoutAWalkOverAllRows();
    void countsPerStatus();
    void aRowGoneLetsGoOfItsViewAndMakesRoom();
};

void TestUiLockTableModel::batchesUpdateRowsWithoutReset()
{
    Fixture f;
    QSignalSpy sourceResets(&f.model, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy proxyResets(&f.proxy, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy inserted(&f.model, &QAbstractItemModel::rowsInserted);
    f.model.apply(
        added({makeView("lock:a", LockStatus::Held, 10000), makeView("lock:b", LockStatus::Stuck, -1),
               makeView("lock:c", LockStatus::Partial, 5000, 1)}));
    QCOMPARE(inserted.count(), 1); // one batch, one insertion
    QCOMPARE(f.proxy.rowCount(), 3);

    LockBatch b;
    b.changed << SharedLockView(makeView("lock:a", LockStatus::Contested, 9000, 2));
    b.removed << "lock:b";
    f.model.apply(b);
    QCOMPARE(f.model.rowCount(), 2);
    QCOMPARE(f.proxy.rowCount(), 2);
    const int row = f.model.rowOf("lock:a");
    QCOMPARE(f.model.index(row, LockTableModel::StatusColumn).data().toString(), QStringLiteral("contested"));
    QCOMPARE(f.model.index(row, LockTableModel::QuorumColumn).data().toString(), QStringLiteral("2/5"));
    QCOMPARE(f.model.rowOf("lock:b"), -1);
    QCOMPARE(sourceResets.count(), 0);
    QCOMPARE(proxyResets.count(), 0);
}

void TestUiLockTableModel::changesAreCoalesced()
{
    Fixture f;
    QList<LockView> views;
    for (int i = 0; i < 100; ++i)
        views << makeView("lock:" + QByteArray::number(1000 + i), LockStatus::Held, 10000);
    f.model.apply(added(views));
    QSignalSpy changed(&f.model, &QAbstractItemModel::dataChanged);

    LockBatch all;
    for (LockView v : views) {
        v.owner = QStringLiteral("someone else");
        all.changed << SharedLockView(v);
    }
    f.model.apply(all);
    QCOMPARE(changed.count(), 1); // most rows changed: one range
    QCOMPARE(changed.first().at(0).toModelIndex().row(), 0);
    QCOMPARE(changed.first().at(1).toModelIndex().row(), 99);

    changed.clear();
    LockBatch few;
    for (int i : {3, 4, 5, 40, 77})
        few.changed << SharedLockView(views.at(i));
    f.model.apply(few);
    QCOMPARE(changed.count(), 3); // runs 3-5, 40, 77

    changed.clear();
    LockBatch scattered; // many runs, but few rows: still one signal per run, never a range over the rest
    for (int i = 0; i < 40; i += 2)
        scattered.changed << SharedLockView(views.at(i));
    f.model.apply(scattered);
    QCOMPARE(changed.count(), 20);
}

void TestUiLockTableModel::sortsOnRawValuesNotText()
{
    Fixture f;
    // As text "1 m 40 s" < "20.0 s" < "9.0 s"; as durations the other way round.
    f.model.apply(added(
        {makeView("lock:long", LockStatus::Held, 100000), makeView("lock:short", LockStatus::Held, 9000),
         makeView("lock:mid", LockStatus::Held, 20000), makeView("lock:never", LockStatus::Stuck, -1)}));
    f.proxy.sort(LockTableModel::TtlColumn, Qt::AscendingOrder);
    QCOMPARE(proxyResources(f.proxy), (QByteArrayList{"lock:short", "lock:mid", "lock:long", "lock:never"}));
    // SortRole gives the same raw order the proxy used.
    for (int r = 1; r < f.proxy.rowCount(); ++r)
        QVERIFY(f.proxy.index(r - 1, LockTableModel::TtlColumn).data(LockTableModel::SortRole).toLongLong() <
                f.proxy.index(r, LockTableModel::TtlColumn).data(LockTableModel::SortRole).toLongLong());
    f.proxy.sort(LockTableModel::TtlColumn, Qt::DescendingOrder);
    QCOMPARE(proxyResources(f.proxy), (QByteArrayList{"lock:never", "lock:long", "lock:mid", "lock:short"}));
    // Status sorts by severity: stuck first.
    f.proxy.sort(LockTableModel::StatusColumn, Qt::AscendingOrder);
    QCOMPARE(proxyResources(f.proxy).first(), QByteArray("lock:never"));
}

void TestUiLockTableModel::statusFilters_data()
{
    QTest::addColumn<int>("filters");
    QTest::addColumn<QByteArrayList>("expected");
    QTest::newRow("none shows all") << int(LockFilterProxy::NoQuickFilter)
                                    << QByteArrayList{"c", "h", "p", "s", "soon", "u"};
    QTest::newRow("stuck") << int(LockFilterProxy::StuckFilter) << QByteArrayList{"s"};
    QTest::newRow("contested") << int(LockFilterProxy::ContestedFilter) << QByteArrayList{"c"};
    QTest::newRow("partial") << int(LockFilterProxy::PartialFilter) << QByteArrayList{"p"};
    QTest::newRow("expiring soon") << int(LockFilterProxy::ExpiringSoonFilter) << QByteArrayList{"p", "soon"};
    QTest::newRow("stuck or contested")
        << int(LockFilterProxy::StuckFilter | LockFilterProxy::ContestedFilter) << QByteArrayList{"c", "s"};
}

void TestUiLockTableModel::statusFilters()
{
    QFETCH(int, filters);
    QFETCH(QByteArrayList, expected);
    Fixture f;
    f.proxy.sort(LockTableModel::ResourceColumn, Qt::AscendingOrder);
    f.model.apply(
        added({makeView("h", LockStatus::Held, 60000), makeView("soon", LockStatus::Held, 3000),
               makeView("p", LockStatus::Partial, 2000, 1), makeView("c", LockStatus::Contested, 60000, 2),
               makeView("s", LockStatus::Stuck, -1), makeView("u", LockStatus::Unknown, -1, 0)}));
    f.proxy.setExpiringSoonMs(5000);
    f.proxy.setQuickFilters(LockFilterProxy::QuickFilters(filters));
    QCOMPARE(proxyResources(f.proxy), expected);
    // A lock that changes into a filtered status appears without a reset.
    LockBatch b;
    b.changed << SharedLockView(makeView("h", LockStatus::Stuck, -1));
    f.model.apply(b);
    QCOMPARE(proxyResources(f.proxy).contains("h"), filters == 0 || (filters & LockFilterProxy::StuckFilter));
}

void TestUiLockTableModel::textAndGlobFilter()
{
    Fixture f;
    f.proxy.sort(LockTableModel::ResourceColumn, Qt::AscendingOrder);
    f.model.apply(added({makeView("lock:orders", LockStatus::Held, 60000),
                         makeView("mutex:billing", LockStatus::Held, 60000),
                         makeView("lock:Billing-eu", LockStatus::Held, 60000, 3, "abc123")}));
    f.proxy.setFilterText(QStringLiteral("billing"));
    QCOMPARE(proxyResources(f.proxy), (QByteArrayList{"lock:Billing-eu", "mutex:billing"}));
    f.proxy.setFilterText(QStringLiteral("lock:*"));
    QCOMPARE(proxyResources(f.proxy), (QByteArrayList{"lock:Billing-eu", "lock:orders"}));
    f.proxy.setFilterText(QStringLiteral("*:b?lling"));
    QCOMPARE(proxyResources(f.proxy), (QByteArrayList{"mutex:billing"}));
    f.proxy.setFilterText(QStringLiteral("ABC12")); // tokens match too
    QCOMPARE(proxyResources(f.proxy), (QByteArrayList{"lock:Billing-eu"}));
    f.proxy.setFilterText(QString());
    QCOMPARE(f.proxy.rowCount(), 3);
}

void TestUiLockTableModel::expiringSoonFollowsTheClock()
{
    Fixture f;
    f.model.apply(added({makeView("lock:ticking", LockStatus::Held, 5300)}));
    f.proxy.setExpiringSoonMs(5000);
    f.proxy.setQuickFilters(LockFilterProxy::ExpiringSoonFilter);
    QCOMPARE(f.proxy.rowCount(), 0);
    // No batch arrives: only time passes.
    QTRY_COMPARE_WITH_TIMEOUT((f.proxy.recheckTimeFilters(), f.proxy.rowCount()), 1, 2000);
}

void TestUiLockTableModel::selectionSurvivesRefreshAndReorder()
{
    Fixture f;
    f.proxy.sort(LockTableModel::TtlColumn, Qt::AscendingOrder);
    QList<LockView> views;
    for (int i = 0; i < 200; ++i)
        views << makeView("lock:" + QByteArray::number(i), LockStatus::Held, 10000 + i * 100);
    f.model.apply(added(views));
    QItemSelectionModel selection(&f.proxy);
    const int row = f.model.rowOf("lock:50");
    const QModelIndex selected = f.proxy.mapFromSource(f.model.index(row, 0));
    selection.setCurrentIndex(selected, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);

    // A refresh: the selected lock is extended (moves to the end of the TTL order), many locks arrive
    // in between (a merge), and others go.
    LockBatch b;
    b.changed << SharedLockView(makeView("lock:50", LockStatus::Held, 500000));
    for (int i = 0; i < 300; ++i)
        b.added << SharedLockView(makeView("new:" + QByteArray::number(i), LockStatus::Held, 5000 + i * 37));
    for (int i = 100; i < 150; ++i)
        b.removed << "lock:" + QByteArray::number(i);
    f.model.apply(b);

    QCOMPARE(selection.currentIndex().data(LockTableModel::ResourceRole).toByteArray(),
             QByteArray("lock:50"));
    QCOMPARE(selection.selectedRows().size(), 1);
    QCOMPARE(selection.selectedRows().first().data(LockTableModel::ResourceRole).toByteArray(),
             QByteArray("lock:50"));
    QCOMPARE(selection.currentIndex().row(), f.proxy.rowCount() - 1);
}

void TestUiLockTableModel::randomBatchesMatchBruteForce()
{
    Fixture f;
    QRandomGenerator rng(42);
    QHash<QByteArray, LockView> truth;
    for (int round = 0; round < 60; ++round) {
        if (round % 10 == 0)
            f.proxy.sort(rng.bounded(int(LockTableModel::ColumnCount)),
                         rng.bounded(2) ? Qt::AscendingOrder : Qt::DescendingOrder);
        if (round % 15 == 7)
            f.proxy.setQuickFilters(LockFilterProxy::QuickFilters(rng.bounded(16)));
        f.model.apply(randomBatch(rng, truth, round < 5 ? 400 : 40));
        QCOMPARE(f.model.rowCount(), int(truth.size()));
        compareWithBruteForce(f);
        if (QTest::currentTestFailed())
            return;
    }
}

// Sorting reads each row's name from an array by row: it must be the bytes of the view the row
// shows now, through additions, changes and removals, when every view carries a copy of its name of
// its own (as the monitor's do: a change's view is a new one, and the old one, and its bytes, go).
void TestUiLockTableModel::resourcesByRowAreTheShownViewsOwn()
{
    Fixture f;
    f.proxy.sort(LockTableModel::ResourceColumn, Qt::AscendingOrder);
    QRandomGenerator rng(7);
    QHash<QByteArray, LockView> truth;
    for (int round = 0; round < 40; ++round) {
        LockBatch batch = randomBatch(rng, truth, round < 5 ? 400 : 40);
        for (QList<SharedLockView>* list : {&batch.added, &batch.changed})
            for (SharedLockView& v : *list) {
                LockView own = *v;
                own.resource = QByteArray(v->resource.constData(), v->resource.size()); // bytes of its own
                v = SharedLockView(own);
            }
        truth.clear(); // the views in the batch are the only ones left holding their names
        f.model.apply(batch);
        for (int r = 0; r < f.model.rowCount(); ++r) {
            const LockView& view = f.model.viewAt(r);
            truth.insert(view.resource, view);
            // The addresses (QCOMPARE would compare two char pointers as strings).
            QCOMPARE(quintptr(f.model.resourceAt(r).data()), quintptr(view.resource.constData()));
            QCOMPARE(f.model.resourceAt(r).size(), view.resource.size());
        }
        compareWithBruteForce(f);
        if (QTest::currentTestFailed())
            return;
    }
}

void TestUiLockTableModel::slicedFilteringMatchesBruteForce()
{
    // A few rows per slice: every filter change takes many slices, and batches, sorts and further
    // filter changes (cancelling the pass under way) arrive between them.
    Fixture f;
    f.proxy.setSliceLimit(61);
    QRandomGenerator rng(4242);
    QHash<QByteArray, LockView> truth;
    const QStringList texts{QString(),
                            QStringLiteral("r1"),
                            QStringLiteral("r12"),
                            QStringLiteral("R2*"),
                            QStringLiteral("owner of r3"),
                            QStringLiteral("r")};
    for (int round = 0; round < 70; ++round) {
        switch (rng.bounded(8)) {
        case 0:
        case 1:
            f.proxy.setFilterText(texts.at(rng.bounded(int(texts.size()))));
            break;
        case 2:
            f.proxy.setQuickFilters(LockFilterProxy::QuickFilters(rng.bounded(16)));
            break;
        case 3:
            if (rng.bounded(3) == 0)
                f.proxy.sort(rng.bounded(int(LockTableModel::ColumnCount)),
                             rng.bounded(2) ? Qt::AscendingOrder : Qt::DescendingOrder);
            break;
        default:
            break;
        }
        f.model.apply(randomBatch(rng, truth, round < 5 ? 600 : 40));
        // What is shown is always right for the filter shown, mid-pass too.
        compareWithBruteForce(f);
        if (QTest::currentTestFailed())
            return;
        for (int slices = rng.bounded(40); slices > 0; --slices)
            QCoreApplication::processEvents();
        if (round % 10 == 9) {
            runSlicesToTheEnd(f.proxy);
            compareWithBruteForce(f);
            if (QTest::currentTestFailed())
                return;
        }
    }
}

void TestUiLockTableModel::typingCancelsThePassUnderWay()
{
    Fixture f;
    QList<LockView> views;
    for (int i = 0; i < 3000; ++i)
        views << makeView("r" + QByteArray::number(i), LockStatus::Held, 600000);
    f.model.apply(added(views));
    f.proxy.setSliceLimit(100);
    QSignalSpy applied(&f.proxy, &LockFilterProxy::filterApplied);
    f.proxy.setFilterText(QStringLiteral("r1"));
    QVERIFY(f.proxy.isFiltering());
    QCOMPARE(f.proxy.rowCount(), 3000);           // the old result until the new one is complete
    f.proxy.setFilterText(QStringLiteral("r12")); // the next key: the first pass is dropped
    QCOMPARE(f.proxy.filterText(), QStringLiteral("r12"));
    runSlicesToTheEnd(f.proxy);
    QCOMPARE(applied.count(), 1);
    QCOMPARE(f.proxy.rowCount(), 1 + 10 + 100); // r12, r120..r129, r1200..r1299
    compareWithBruteForce(f);
}

void TestUiLockTableModel::bigFilterChangeLeavesTheEventLoopBetweenSlices()
{
    // 200k locks: judging them all takes far longer than one slice, so setFilterText returns before
    // the result is in and the view goes on with the old rows meanwhile (no removal, no reset yet).
    Fixture f;
    QList<LockView> views;
    views.reserve(200000);
    LockView v;
    v.status = LockStatus::Held;
    v.validityMs = 600000;
    v.computedAtMs = monotonicMs();
    for (int i = 0; i < 200000; ++i) {
        v.resource = "lock:m" + QByteArray::number(i);
        views << v;
    }
    f.model.apply(added(views));
    QCOMPARE(f.proxy.rowCount(), 200000);
    QSignalSpy resets(&f.proxy, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy removals(&f.proxy, &QAbstractItemModel::rowsAboutToBeRemoved);
    f.proxy.setFilterText(QStringLiteral("m1"));
    QCOMPARE(resets.count() + removals.count(), 0);
    QCOMPARE(f.proxy.rowCount(), 200000);
    // A wait for the end, not a bound on it: under a sanitizer the passes alone take half a minute.
    QTRY_COMPARE_WITH_TIMEOUT(f.proxy.rowCount(), 1 + 10 + 100 + 1000 + 10000 + 100000, 240000);
}

void TestUiLockTableModel::bigFilterChangeIsShownWithoutAWalkOverAllRows()
{
    // Every stage of a change (judging, weighing, sorting, placing) stops at the slice limit, and
    // the slice that shows the result only swaps it in: no slice goes through a number of rows that
    // grows with the model, which at a million rows would be a stall whatever the machine.
    Fixture f;
    QList<LockView> views;
    const int n = 60000;
    views.reserve(n);
    for (int i = 0; i < n; ++i)
        views << makeView("lock:m" + QByteArray::number((i * 7919) % n), LockStatus::Held, 600000);
    f.model.apply(added(views));
    f.proxy.sort(LockTableModel::ResourceColumn);
    const long limit = 500;
    f.proxy.setSliceLimit(limit);
    QSignalSpy resets(&f.proxy, &QAbstractItemModel::modelAboutToBeReset);
    f.proxy.setFilterText(QStringLiteral("m1"));
    runSlicesToTheEnd(f.proxy);
    QCOMPARE(f.proxy.rowCount(), 1 + 10 + 100 + 1000 + 10000);
    f.proxy.setFilterText(QString()); // every other row comes in, sorted among those shown
    runSlicesToTheEnd(f.proxy);
    QCOMPARE(f.proxy.rowCount(), n);
    QCOMPARE(resets.count(), 1);
    compareWithBruteForce(f);
    QVERIFY2(f.proxy.busiestSlice() <= 4 * limit, qPrintable(QString::number(f.proxy.busiestSlice())));
}

void TestUiLockTableModel::countsPerStatus()
{
    Fixture f;
    f.model.apply(added({makeView("a", LockStatus::Held, 1000), makeView("b", LockStatus::Held, 1000),
                         makeView("c", LockStatus::Stuck, -1)}));
    QCOMPARE(f.model.counts()[size_t(LockStatus::Held)], 2);
    QCOMPARE(f.model.counts()[size_t(LockStatus::Stuck)], 1);
    LockBatch b;
    b.changed << SharedLockView(makeView("a", LockStatus::Contested, 1000, 2));
    b.removed << "c";
    f.model.apply(b);
    QCOMPARE(f.model.counts()[size_t(LockStatus::Held)], 1);
    QCOMPARE(f.model.counts()[size_t(LockStatus::Contested)], 1);
    QCOMPARE(f.model.counts()[size_t(LockStatus::Stuck)], 0);
}

// Rows are pooled: a row removed lets go of its view at once (the monitor's memory is not held by
// a slot waiting to be reused), and the rows added after it are found and shown as any other.
void TestUiLockTableModel::aRowGoneLetsGoOfItsViewAndMakesRoom()
{
    LockTableModel model;
    const QByteArray token = "tok-" + QByteArray::number(QRandomGenerator::global()->generate());
    model.apply(
        added({makeView("lock:a", LockStatus::Held, 10000, 3, token),
               makeView("lock:b", LockStatus::Held, 10000), makeView("lock:c", LockStatus::Stuck, -1)}));
    QVERIFY(!token.isDetached());
    model.apply(LockBatch{{}, {}, {"lock:a"}});
    QVERIFY(token.isDetached());
    QCOMPARE(model.rowCount(), 2);
    for (int round = 0; round < 3; ++round) {
        QList<LockView> views;
        for (int i = 0; i < 50; ++i)
            views << makeView("lock:n" + QByteArray::number(round * 50 + i), LockStatus::Partial, 2000, 1);
        model.apply(added(views));
        LockBatch gone;
        for (int i = 0; i < 50; i += 2)
            gone.removed << "lock:n" + QByteArray::number(round * 50 + i);
        model.apply(gone);
    }
    QCOMPARE(model.rowCount(), 2 + 3 * 25);
    for (int row = 0; row < model.rowCount(); ++row)
        QCOMPARE(model.rowOf(model.viewAt(row).resource), row);
    QCOMPARE(model.find("lock:n3")->status, LockStatus::Partial);
    QVERIFY(!model.find("lock:n2"));
    QCOMPARE(model.counts()[int(LockStatus::Partial)], 75);

    // Every row gone, then the table fills again.
    LockBatch all;
    for (int row = 0; row < model.rowCount(); ++row)
        all.removed << model.viewAt(row).resource;
    model.apply(all);
    QCOMPARE(model.rowCount(), 0);
    model.apply(added({makeView("lock:z", LockStatus::Held, 10000)}));
    QCOMPARE(model.rowOf("lock:z"), 0);
    QCOMPARE(model.viewAt(0).resource, QByteArray("lock:z"));
}

LOCKSCOPE_TEST_MAIN(TestUiLockTableModel)

} // namespace tst_uilocktablemodel

#include "tst_uilocktablemodel.moc"
