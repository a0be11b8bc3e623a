// SPDX-License-Identifier: Apache-2.0
#include "record/inlinefirstarray.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_inlinefirstarray {

using namespace lockscope;

namespace {

struct Part
{
    qint64 pttl = -2;
    int type = 0;
};

} // namespace

class TestInlineFirstArray : public QObject
{
    Q_OBJECT

private slots:
    void resizeKeepsWhatWasThere();
    void copiesAreDeepAndMovesLeaveNothing();
};

void TestInlineFirstArray::resizeKeepsWhatWasThere()
{
    InlineFirstArray<Part> a;
    QCOMPARE(a.size(), 0);
    a.resize(1);
    QCOMPARE(a.size(), 1);
    QCOMPARE(a[0].pttl, -2);
    a[0].type = 3;
    a.resize(5);
    QCOMPARE(a.size(), 5);
    QCOMPARE(a[0].type, 3);
    for (int i = 1; i < 5; ++i) {
        QCOMPARE(a[i].pttl, -2); // new ones are as made
        a[i].type = 10 + i;
    }
    a.resize(5); // the same size: nothing changes
    QCOMPARE(a[4].type, 14);
    a.resize(3);
    QCOMPARE(a.size(), 3);
    QCOMPARE(a[0].type, 3);
    QCOMPARE(a[2].type, 12);
    a.resize(6);
    QCOMPARE(a[2].type, 12);
    QCOMPARE(a[3].type, 0);
    QCOMPARE(a[5].type, 0);
    a.resize(1);
    QCOMPARE(a.size(), 1);
    QCOMPARE(a[0].type, 3);
}

void TestInlineFirstArray::copiesAreDeepAndMovesLeaveNothing()
{
    InlineFirstArray<Part> a;
    a.resize(4);
    for (int i = 0; i < 4; ++i)
        a[i].type = i + 1;
    InlineFirstArray<Part> b = a;
    b[0].type = 100;
    b[3].type = 400;
    QCOMPARE(a[0].type, 1);
    QCOMPARE(a[3].type, 4);
    InlineFirstArray<Part> c;
    c = b;
    QCOMPARE(c[3].type, 400);
    c = c; // itself
    QCOMPARE(c[3].type, 400);
    InlineFirstArray<Part> d(std::move(c));
    QCOMPARE(d.size(), 4);
    QCOMPARE(d[3].type, 400);
    QCOMPARE(c.size(), 0); // NOLINT(bugprone-use-after-move): a moved-from array is empty
    InlineFirstArray<Part> one;
    one.resize(1);
    one[0].type = 7;
    d = one;
    QCOMPARE(d.size(), 1);
    QCOMPARE(d[0].type, 7);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestInlineFirstArray)

} // namespace tst_inlinefirstarray

#include "tst_inlinefirstarray.moc"
