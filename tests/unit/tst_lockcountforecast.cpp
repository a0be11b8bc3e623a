// SPDX-License-Identifier: Apache-2.0
#include "monitor/lockcountforecast.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_lockcountforecast {

using namespace lockscope;

class TestLockCountForecast : public QObject
{
    Q_OBJECT

private slots:
    void nothingWhileTooLittleIsScanned();
    void oneMasterScalesByItsShare();
    void severalMastersMeetALockIndependently();
    void neverMoreThanTheKeysThereAre();
};

void TestLockCountForecast::nothingWhileTooLittleIsScanned()
{
    LockCountForecast f;
    QCOMPARE(f.expected(100), qint64(0)); // no progress at all
    f.setProgress(0, 1000, 1000000);      // 0.1 %
    QCOMPARE(f.expected(100), qint64(0));
    f.setProgress(0, 0, 0); // an empty keyspace says nothing
    QCOMPARE(f.expected(100), qint64(0));
}

void TestLockCountForecast::oneMasterScalesByItsShare()
{
    LockCountForecast f;
    f.setProgress(0, 250000, 1000000);
    QCOMPARE(f.expected(25000), qint64(100000));
    f.setProgress(0, 1000000, 1000000);
    QCOMPARE(f.expected(100000), qint64(100000));
}

void TestLockCountForecast::severalMastersMeetALockIndependently()
{
    // Five masters a fifth through: a lock on all five is known with 1 - 0.8^5 = 67.2 %.
    LockCountForecast f;
    for (int m = 0; m < 5; ++m)
        f.setProgress(m, 200000, 1000000);
    QCOMPARE(f.expected(67232), qint64(100000));
}

void TestLockCountForecast::neverMoreThanTheKeysThereAre()
{
    LockCountForecast f;
    f.setProgress(0, 30, 1000);
    f.setProgress(1, 30, 1000);
    QCOMPARE(f.expected(1500), qint64(2000)); // 1500 / 5.91 % would be 25k; there are 2,000 keys
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockCountForecast)

} // namespace tst_lockcountforecast

#include "tst_lockcountforecast.moc"
