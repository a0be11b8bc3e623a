// SPDX-License-Identifier: Apache-2.0
#include "locks/tableroom.h"
#include "support/testregistry.h"

#include <QByteArray>
#include <QHash>
#include <QTest>

namespace tst_uitableroom {

using namespace lockscope;

class TestUiTableRoom : public QObject
{
    Q_OBJECT

private slots:
    // A quarter more than a forecast a million was a table of 2M slots (4M buckets) for a million
    // entries; the room stops at the power of two the forecast needs anyway.
    void aMillionLocksGetTheTableAMillionNeeds()
    {
        QHash<QByteArray, int> forecastAlone;
        forecastAlone.reserve(1'000'000);
        QHash<QByteArray, int> sized;
        sized.reserve(tableRoomFor(1'000'000));
        QCOMPARE(sized.capacity(), forecastAlone.capacity());
        QCOMPARE(tableRoomFor(1'000'000), 1'048'576);
    }

    // Where the power of two leaves less than a quarter, the quarter is kept: a forecast that
    // rises a little more needs no rehash of what the tables hold.
    void aQuarterMoreWhereItFitsTheSameTable()
    {
        QCOMPARE(tableRoomFor(600'000), 750'000);
        QCOMPARE(tableRoomFor(1'100'000), 1'375'000);
        QCOMPARE(tableRoomFor(4096), 4096); // already a power of two: exactly that
        QCOMPARE(tableRoomFor(3000), 3750);
        for (qint64 forecast : {1024LL, 5000LL, 300'000LL, 1'000'000LL, 3'000'000LL})
            QVERIFY2(tableRoomFor(forecast) >= forecast, qPrintable(QString::number(forecast)));
    }

    void nothingForNothing()
    {
        QCOMPARE(tableRoomFor(0), 0);
        QCOMPARE(tableRoomFor(-5), 0);
        QCOMPARE(tableRoomFor(1), 1);
    }
};

LOCKSCOPE_TEST_GUILESS_MAIN(TestUiTableRoom)

} // namespace tst_uitableroom

#include "tst_uitableroom.moc"
