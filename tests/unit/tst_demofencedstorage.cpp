// SPDX-License-Identifier: Apache-2.0
// The demo storage's fencing check, alone: what it accepts, what it rejects, what it counts.
#include "demo/demofencedstorage.h"
#include "support/testregistry.h"

#include <QSignalSpy>
#include <QTest>

namespace tst_demofencedstorage {

using namespace lockscope;

class TestDemoFencedStorage : public QObject
{
    Q_OBJECT

private slots:
    void acceptsIncreasingNumbers();
    void rejectsALowerNumberWithFencingOn();
    void acceptsALowerNumberWithFencingOffAndCountsAViolation();
    void resourcesAreIndependent();
};

void TestDemoFencedStorage::acceptsIncreasingNumbers()
{
    DemoFencedStorage storage;
    QSignalSpy written(&storage, &DemoFencedStorage::written);
    QVERIFY(storage.write("r", QStringLiteral("a"), 1).accepted);
    QVERIFY(storage.write("r", QStringLiteral("b"), 2).accepted);
    // The same number again is the same holder writing twice: not stale.
    const DemoWrite again = storage.write("r", QStringLiteral("b"), 2);
    QVERIFY(again.accepted);
    QVERIFY(!again.stale);
    QCOMPARE(storage.highestSeen("r"), 2);
    QCOMPARE(storage.accepted(), 3);
    QCOMPARE(storage.rejected(), 0);
    QCOMPARE(written.count(), 3);
}

void TestDemoFencedStorage::rejectsALowerNumberWithFencingOn()
{
    DemoFencedStorage storage;
    QVERIFY(storage.fencing());
    storage.write("r", QStringLiteral("b"), 34);
    const DemoWrite stale = storage.write("r", QStringLiteral("a"), 33);
    QVERIFY(stale.stale);
    QVERIFY(!stale.accepted);
    QVERIFY(!stale.isViolation());
    QCOMPARE(stale.highestSeen, 34);
    QCOMPARE(storage.highestSeen("r"), 34);
    QCOMPARE(storage.rejected(), 1);
    QCOMPARE(storage.violations(), 0);
}

void TestDemoFencedStorage::acceptsALowerNumberWithFencingOffAndCountsAViolation()
{
    DemoFencedStorage storage;
    QSignalSpy toggled(&storage, &DemoFencedStorage::fencingChanged);
    storage.setFencing(false);
    QCOMPARE(toggled.count(), 1);
    storage.write("r", QStringLiteral("b"), 34);
    const DemoWrite stale = storage.write("r", QStringLiteral("a"), 33);
    QVERIFY(stale.stale);
    QVERIFY(stale.accepted);
    QVERIFY(stale.isViolation());
    QCOMPARE(storage.highestSeen("r"), 34); // a stale write never lowers the mark
    QCOMPARE(storage.violations(), 1);
}

void TestDemoFencedStorage::resourcesAreIndependent()
{
    DemoFencedStorage storage;
    storage.write("a", QStringLiteral("x"), 10);
    QVERIFY(storage.write("b", QStringLiteral("y"), 1).accepted);
    QVERIFY(!storage.write("a", QStringLiteral("y"), 9).accepted);
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestDemoFencedStorage)

} // namespace tst_demofencedstorage

#include "tst_demofencedstorage.moc"
