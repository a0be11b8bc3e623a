// SPDX-License-Identifier: Apache-2.0
#include "discovery/keyspaceeventthrottle.h"
#include "support/testregistry.h"

#include <QTest>

namespace tst_keyspaceeventthrottle {

using namespace lockscope;

namespace {
constexpr int perWindow = KeyspaceEventThrottle::perWindow;
constexpr qint64 windowMs = KeyspaceEventThrottle::windowMs;
} // namespace

class TestKeyspaceEventThrottle : public QObject
{
    Q_OBJECT

private slots:
    // A flood of TTL changes: a window's worth pass, the rest are counted, and the next window
    // passes a window's worth again.
    void aFloodPassesAWindowsWorthAndCountsTheRest()
    {
        KeyspaceEventThrottle throttle;
        int passed = 0;
        for (int i = 0; i < 10'000; ++i)
            passed += throttle.pass("expire", 1000 + i * (windowMs - 1) / 10'000) ? 1 : 0;
        QCOMPARE(passed, perWindow);
        QCOMPARE(throttle.takeSkipped(), 10'000 - perWindow);
        QCOMPARE(throttle.takeSkipped(), 0); // taken once
        QVERIFY(throttle.pass("expire", 1000 + windowMs));
    }

    // What ends a key always passes, even in a flood: the recorder tells expiry from release by it.
    void expiriesAndDeletesAlwaysPass()
    {
        KeyspaceEventThrottle throttle;
        for (int i = 0; i < perWindow; ++i)
            QVERIFY(throttle.pass("set", 5000));
        QVERIFY(!throttle.pass("pexpire", 5000));
        for (const char* ending : {"expired", "evicted", "del", "unlink", "hdel", "zrem", "srem"})
            QVERIFY2(throttle.pass(ending, 5000), ending);
        QCOMPARE(throttle.takeSkipped(), 1);
    }

    // An ordinary rate is never held back.
    void anOrdinaryRatePassesWhole()
    {
        KeyspaceEventThrottle throttle;
        for (int i = 0; i < 5'000; ++i) // 1,000 a second for five seconds
            QVERIFY(throttle.pass("set", i));
        QCOMPARE(throttle.takeSkipped(), 0);
    }
};

LOCKSCOPE_TEST_GUILESS_MAIN(TestKeyspaceEventThrottle)

} // namespace tst_keyspaceeventthrottle

#include "tst_keyspaceeventthrottle.moc"
