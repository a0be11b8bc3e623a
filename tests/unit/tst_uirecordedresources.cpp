// SPDX-License-Identifier: Apache-2.0
#include "history/recordedresourcesmodel.h"
#include "support/testregistry.h"

#include <QSignalSpy>
#include <QTest>

namespace tst_uirecordedresources {

using namespace lockscope;

// The History dock's list of a reviewed recording's resources: one reset however many there are,
// names escaped as everywhere, and each found again by a search, not a walk.
class TestUiRecordedResources : public QObject
{
    Q_OBJECT

private slots:
    void namesAreEscapedAndTheBytesKept();
    void aResourceIsFoundSortedOrNot();
    void aMillionIsOneReset();
};

void TestUiRecordedResources::namesAreEscapedAndTheBytesKept()
{
    RecordedResourcesModel model;
    model.setResources({QByteArray("lock:\x1b[31mred", 13), "lock:plain"});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0).data().toString(), QStringLiteral("lock:\\x1b[31mred"));
    QCOMPARE(model.index(0).data(Qt::UserRole).toByteArray(), QByteArray("lock:\x1b[31mred", 13));
    QCOMPARE(model.index(1).data().toString(), QStringLiteral("lock:plain"));
}

void TestUiRecordedResources::aResourceIsFoundSortedOrNot()
{
    RecordedResourcesModel model;
    model.setResources({"a", "b", "c", "d"});
    QCOMPARE(model.rowOf("c"), 2);
    QCOMPARE(model.rowOf("a"), 0);
    QCOMPARE(model.rowOf("bb"), -1);
    QCOMPARE(model.rowOf("z"), -1);
    // A list in another order (from elsewhere) is still searched right.
    model.setResources({"d", "a", "c"});
    QCOMPARE(model.rowOf("c"), 2);
    QCOMPARE(model.rowOf("d"), 0);
    QCOMPARE(model.rowOf("b"), -1);
}

void TestUiRecordedResources::aMillionIsOneReset()
{
    QList<QByteArray> many;
    many.reserve(1000000);
    for (int i = 0; i < 1000000; ++i)
        many << "lock:" + QByteArray::number(i).rightJustified(7, '0');
    RecordedResourcesModel model;
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserts(&model, &QAbstractItemModel::rowsInserted);
    model.setResources(many);
    QCOMPARE(resets.size(), 1);
    QCOMPARE(inserts.size(), 0);
    QCOMPARE(model.rowCount(), 1000000);
    QCOMPARE(model.rowOf("lock:0654321"), 654321);
}

LOCKSCOPE_TEST_MAIN(TestUiRecordedResources)

} // namespace tst_uirecordedresources

#include "tst_uirecordedresources.moc"
