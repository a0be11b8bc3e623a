// SPDX-License-Identifier: Apache-2.0
#include "locks/slicedplacement.h"
#include "support/testregistry.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>

namespace tst_uislicedplacement {

using namespace lockscope;

class TestUiSlicedPlacement : public QObject
{
    Q_OBJECT

private slots:
    void placesTheAcceptedRowsInOrderWhateverTheSlices();
};

// Rows sorted by key with ties, some no longer accepted, some rows appended after the sort (not in
// its result), some whose key changed after it (misplaced), placed 1..60 units at a time: the order
// holds every accepted row once, in key order, and the map is its inverse.
void TestUiSlicedPlacement::placesTheAcceptedRowsInOrderWhateverTheSlices()
{
    QRandomGenerator rng(19);
    for (int round = 0; round < 300; ++round) {
        const int n = rng.bounded(round < 30 ? 6 : 2000);
        std::vector<int> keys(static_cast<size_t>(n));
        for (int& k : keys)
            k = rng.bounded(40);
        auto less = [&keys](int a, int b) { return keys[size_t(a)] < keys[size_t(b)]; };
        std::vector<char> accepted(static_cast<size_t>(n));
        for (char& a : accepted)
            a = rng.bounded(4) != 0 ? 1 : 0;
        const int sortedCount = n - (n > 0 ? rng.bounded(qMin(n, 20) + 1) : 0); // the rest came later
        std::vector<int> sorted;
        for (int s = 0; s < sortedCount; ++s)
            if (accepted[size_t(s)] || rng.bounded(3) == 0) // a row the filter dropped after judging
                sorted.push_back(s);
        std::stable_sort(sorted.begin(), sorted.end(), less);
        std::vector<int> misplaced;
        for (int i = rng.bounded(round % 3 == 0 ? 15 : 1); i > 0 && n > 0; --i) {
            const int s = rng.bounded(n);
            keys[size_t(s)] = rng.bounded(40);
            misplaced.push_back(s);
        }

        SlicedPlacement placement;
        placement.start(sorted, misplaced, size_t(n));
        int slices = 0;
        while (!placement.step(accepted, less, 1 + rng.bounded(60)))
            QVERIFY(++slices < 10000000);
        const std::vector<int> order = placement.takeOrder();
        const std::vector<int> sourceToProxy = placement.takeSourceToProxy();

        std::vector<int> expected;
        for (int s = 0; s < n; ++s)
            if (accepted[size_t(s)])
                expected.push_back(s);
        std::vector<int> got = order;
        std::sort(got.begin(), got.end());
        QCOMPARE(got, expected);
        QVERIFY(std::is_sorted(order.begin(), order.end(), less));
        QCOMPARE(sourceToProxy.size(), size_t(n));
        for (int s = 0; s < n; ++s) {
            const int p = sourceToProxy[size_t(s)];
            QCOMPARE(p >= 0, bool(accepted[size_t(s)]));
            if (p >= 0)
                QCOMPARE(order[size_t(p)], s);
        }
    }
}

LOCKSCOPE_TEST_MAIN(TestUiSlicedPlacement)

} // namespace tst_uislicedplacement

#include "tst_uislicedplacement.moc"
