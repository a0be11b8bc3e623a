// SPDX-License-Identifier: Apache-2.0
#include "base/monotonicclock.h"
#include "metrics/lockactivity.h"
#include "monitor/lockmonitor.h"
#include "support/testregistry.h"
#include "topology/masterset.h"

#include <QTest>

namespace tst_lockactivity {

using namespace lockscope;

class TestLockActivity : public QObject
{
    Q_OBJECT

private slots:
    void oldestFirstSurvivesChurnAndForgets();
};

namespace {

LockView held(const QByteArray& resource, const QByteArray& token)
{
    LockView v;
    v.resource = resource;
    v.token = token;
    v.status = LockStatus::Held;
    v.validityMs = 60000;
    v.computedAtMs = monotonicMs();
    return v;
}

QByteArrayList oldest(const LockActivity& activity)
{
    QByteArrayList out;
    activity.forEachOldest([&out](const QByteArray& r) {
        out << r;
        return true;
    });
    return out;
}

} // namespace

void TestLockActivity::oldestFirstSurvivesChurnAndForgets()
{
    // The monitor's batches are fed by hand: no master is ever opened.
    ConnectionOptions o;
    o.url = RedisUrl::parse(QStringLiteral("redis://127.0.0.1:1")).value();
    MasterSet masters({o});
    LockMonitor monitor(&masters, LockScopeConfig());
    LockActivity activity(&monitor);

    // Enough locks, and enough of them gone, that the order list compacts several times.
    constexpr int count = 6000;
    LockBatch added;
    QByteArrayList expected;
    for (int i = 0; i < count; ++i) {
        const QByteArray r = "lock:" + QByteArray::number(i);
        added.added << SharedLockView(held(r, "t0"));
        expected << r;
    }
    emit monitor.locksChanged(added);
    QCOMPARE(oldest(activity), expected);
    QCOMPARE(activity.trackedLocks(), 2 * count);

    // Two thirds go, every fourth of the rest changes hands (and moves to the back), in rounds.
    QByteArrayList renewed;
    for (int round = 0; round < 3; ++round) {
        LockBatch batch;
        for (int i = round; i < count; i += 3) {
            if (round < 2) {
                batch.removed << "lock:" + QByteArray::number(i);
                expected.removeOne("lock:" + QByteArray::number(i));
            } else if (i % 4 == 2) {
                batch.changed << SharedLockView(held("lock:" + QByteArray::number(i), "t1"));
                expected.removeOne("lock:" + QByteArray::number(i));
                renewed << "lock:" + QByteArray::number(i);
            }
        }
        emit monitor.locksChanged(batch);
    }
    QCOMPARE(oldest(activity), expected + renewed);
    QCOMPARE(activity.trackedLocks(), 2 * (expected.size() + renewed.size()));

    // A lock seen again with the same token keeps its place.
    LockBatch same;
    same.changed << SharedLockView(held(expected.first(), "t0"));
    emit monitor.locksChanged(same);
    QCOMPARE(oldest(activity).first(), expected.first());

    LockBatch gone;
    for (const QByteArray& r : expected + renewed)
        gone.removed << r;
    emit monitor.locksChanged(gone);
    QVERIFY(oldest(activity).isEmpty());
    QCOMPARE(activity.trackedLocks(), 0);
    QCOMPARE(activity.releases(), quint64(count));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockActivity)

} // namespace tst_lockactivity

#include "tst_lockactivity.moc"
