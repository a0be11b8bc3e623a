// SPDX-License-Identifier: Apache-2.0
#include "locks/slicedsort.h"
#include "support/testregistry.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>

namespace tst_uislicedsort {

using namespace lockscope;

class TestUiSlicedSort : public QObject
{
    Q_OBJECT

private slots:
    void matchesStableSortWhateverTheSlices();
};

// Sorted by key with many ties (stability shows), the first `prefix` rows already in order,
// stopped after 1..50 comparisons each time: the result is std::stable_sort's.
void TestUiSlicedSort::matchesStableSortWhateverTheSlices()
{
    QRandomGenerator rng(11);
    for (int round = 0; round < 200; ++round) {
        const int n = rng.bounded(round < 20 ? 5 : 3000);
        std::vector<int> keys(static_cast<size_t>(n));
        for (int& k : keys)
            k = rng.bounded(50);
        auto less = [&keys](int a, int b) { return keys[size_t(a)] < keys[size_t(b)]; };
        std::vector<int> rows(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i)
            rows[size_t(i)] = i;
        const size_t prefix = size_t(rng.bounded(n + 1));
        std::stable_sort(rows.begin(), rows.begin() + long(prefix), less);
        std::vector<int> expected = rows;
        std::stable_sort(expected.begin(), expected.end(), less);

        SlicedSort sort;
        sort.start(rows, prefix);
        int slices = 0;
        while (!sort.step(less, 1 + rng.bounded(50)))
            QVERIFY(++slices < 10000000);
        QVERIFY(sort.isDone());
        QCOMPARE(sort.take(), expected);
    }
}

LOCKSCOPE_TEST_MAIN(TestUiSlicedSort)

} // namespace tst_uislicedsort

#include "tst_uislicedsort.moc"
