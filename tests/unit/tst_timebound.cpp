// The one scale for upper time bounds in the tests (tests/support/timebound): never below 1, the
// sanitizer build and LOCKSCOPE_TIME_SCALE raise it, and it only ever widens a bound.
#include "timebound.h"

#include <QTest>

using namespace lockscope::test;

class TestTimeBound : public QObject
{
    Q_OBJECT

private slots:
    void neverNarrows();
    void environmentScales();
};

void TestTimeBound::neverNarrows()
{
    QVERIFY(timeScale() >= 1.0);
    QVERIFY(upperBoundMs(100) >= 100);
#if defined(__SANITIZE_ADDRESS__)
    QVERIFY(timeScale() >= 4.0);
#endif
}

void TestTimeBound::environmentScales()
{
    qputenv("LOCKSCOPE_TIME_SCALE", "0.1"); // cannot narrow a bound
    QVERIFY(upperBoundMs(100) >= 100);
    qunsetenv("LOCKSCOPE_TIME_SCALE");
    const double base = timeScale();
    qputenv("LOCKSCOPE_TIME_SCALE", "3");
    // The load average may move between the two readings; the factor of 3 dwarfs that.
    QVERIFY2(timeScale() >= 2.5 * base, qPrintable(QStringLiteral("%1 vs %2").arg(timeScale()).arg(base)));
    QVERIFY(upperBoundMs(100) >= 250);
    qunsetenv("LOCKSCOPE_TIME_SCALE");
}

QTEST_GUILESS_MAIN(TestTimeBound)
#include "tst_timebound.moc"
