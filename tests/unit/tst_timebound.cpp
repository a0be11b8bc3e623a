// SPDX-License-Identifier: Apache-2.0
// The one scale for upper time bounds in the tests (tests/support/timebound): never below 1, the
// sanitizer build and LOCKSCOPE_TIME_SCALE raise it, and it only ever widens a bound.
#include "support/testregistry.h"
#include "support/timebound.h"

#include <QElapsedTimer>
#include <QTest>

namespace tst_timebound {

using namespace lockscope::test;

class TestTimeBound : public QObject
{
    Q_OBJECT

private slots:
    void neverNarrows();
    void environmentScales();
    void tryWaitsAreScaled();
};

void TestTimeBound::neverNarrows()
{
    QVERIFY(timeScale() >= 1.0);
    QVERIFY(upperBoundMs(100) >= 100);
#if defined(LOCKSCOPE_SANITIZED) || defined(__SANITIZE_ADDRESS__)
    QVERIFY(timeScale() >= 4.0);
#endif
}

void TestTimeBound::environmentScales()
{
    qputenv("LOCKSCOPE_TIME_SCALE", "0.1"); // cannot narrow a bound
    QVERIFY(upperBoundMs(100) >= 100);
    qputenv("LOCKSCOPE_TIME_SCALE", "3");
    // Compared with what holds at any load (the load factor is >= 1 and may change between two
    // readings under ctest -j2, so a ratio of two readings is not a fixed number).
#if defined(LOCKSCOPE_SANITIZED) || defined(__SANITIZE_ADDRESS__)
    const double floor = 12.0;
#else
    const double floor = 3.0;
#endif
    QVERIFY2(timeScale() >= floor, qPrintable(QString::number(timeScale())));
    QVERIFY(upperBoundMs(100) >= qint64(100 * floor));
    qunsetenv("LOCKSCOPE_TIME_SCALE");
}

void TestTimeBound::tryWaitsAreScaled()
{
    // A QTRY wait of 100 ms, scaled by at least 3: a condition that holds after 250 ms is met within
    // it. Unscaled (Qt's own macro), it fails after 100 ms plus its report's extra wait.
    qputenv("LOCKSCOPE_TIME_SCALE", "3");
    QElapsedTimer clock;
    clock.start();
    QTRY_VERIFY_WITH_TIMEOUT(clock.elapsed() >= 250, 100);
    qunsetenv("LOCKSCOPE_TIME_SCALE");
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestTimeBound)

} // namespace tst_timebound

#include "tst_timebound.moc"
