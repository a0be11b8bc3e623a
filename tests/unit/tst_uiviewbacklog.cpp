// SPDX-License-Identifier: Apache-2.0
// The core's backlog of changes the window has not been sent yet (CoreService): by name, each lock
// once, its view read as it leaves.
#include "locks/locktablemodel.h"
#include "session/viewbacklog.h"
#include "support/heldview.h"
#include "support/randomlockbatch.h"
#include "support/testregistry.h"

#include <QRandomGenerator>
#include <QTest>

namespace tst_uiviewbacklog {

using namespace lockscope;
using lockscope::test::heldView;
using lockscope::test::randomLockBatch;

class TestUiViewBacklog : public QObject
{
    Q_OBJECT

private slots:
    void aLockChangedOftenLeavesOnceAsItIsNow();
    void aLockGoneWhileWaitingLeavesAsItsRemoval();
    void goneAndBackLeavesBothSteps();
    void takesAtMostWhatIsAsked();
    void randomBatchesEndAsSentDirectly();
};

void TestUiViewBacklog::aLockChangedOftenLeavesOnceAsItIsNow()
{
    ViewBacklog backlog;
    LockTable views;
    views.insert("a", SharedLockView(heldView("a", "t0")));
    backlog.add(LockBatch{{SharedLockView(heldView("a", "t0"))}, {}, {}});
    for (int i = 1; i <= 100; ++i) {
        views.insert("a", SharedLockView(heldView("a", "t" + QByteArray::number(i))));
        backlog.add(LockBatch{{}, {views.value("a")}, {}});
    }
    QCOMPARE(backlog.size(), 1);
    const LockBatch out = backlog.take(10, views);
    QVERIFY(backlog.isEmpty());
    // Still new to the window, with the latest token.
    QCOMPARE(out.added.size(), 1);
    QVERIFY(out.changed.isEmpty());
    QCOMPARE(out.added.first()->token, QByteArray("t100"));
}

void TestUiViewBacklog::aLockGoneWhileWaitingLeavesAsItsRemoval()
{
    ViewBacklog backlog;
    LockTable views;
    backlog.add(LockBatch{{}, {SharedLockView(heldView("a", "t1"))}, {}});
    backlog.add(LockBatch{{}, {}, {"a"}});
    QCOMPARE(backlog.size(), 1);
    const LockBatch out = backlog.take(10, views);
    QCOMPARE(out.removed, QList<QByteArray>{"a"});
    QVERIFY(out.added.isEmpty() && out.changed.isEmpty());
}

void TestUiViewBacklog::goneAndBackLeavesBothSteps()
{
    ViewBacklog backlog;
    LockTable views;
    views.insert("a", SharedLockView(heldView("a", "t2")));
    backlog.add(LockBatch{{}, {}, {"a"}});
    backlog.add(LockBatch{{SharedLockView(heldView("a", "t2"))}, {}, {}});
    QCOMPARE(backlog.size(), 2);
    const LockBatch out = backlog.take(10, views);
    // Removals are applied before views: the lock goes, then comes back as new.
    QCOMPARE(out.removed, QList<QByteArray>{"a"});
    QCOMPARE(out.added.size(), 1);
    QCOMPARE(out.added.first()->token, QByteArray("t2"));
}

void TestUiViewBacklog::takesAtMostWhatIsAsked()
{
    ViewBacklog backlog;
    LockTable views;
    LockBatch batch;
    for (int i = 0; i < 1000; ++i) {
        const QByteArray r = "r" + QByteArray::number(i);
        views.insert(r, SharedLockView(heldView(r, "t")));
        batch.added << views.value(r);
    }
    backlog.add(batch);
    QCOMPARE(backlog.size(), 1000);
    QCOMPARE(backlog.take(300, views).steps(), 300);
    QCOMPARE(backlog.size(), 700);
    // Oldest first.
    QCOMPARE(backlog.take(1, views).added.first()->resource, QByteArray("r300"));
}

void TestUiViewBacklog::randomBatchesEndAsSentDirectly()
{
    // Straight into a model, with no BatchQueue between: a lock that went, came back and went again
    // leaves both of its removals in one batch, and the model must take that too.
    QRandomGenerator rng(13);
    for (int round = 0; round < 50; ++round) {
        LockTableModel direct;
        LockTableModel sent;
        ViewBacklog backlog;
        LockTable views; // the monitor's, as it is at each moment
        for (int step = 0; step < 60; ++step) {
            const LockBatch batch = randomLockBatch(rng, views);
            direct.apply(batch);
            backlog.add(batch);
            if (rng.bounded(3) == 0)
                sent.apply(backlog.take(1 + rng.bounded(5), views));
        }
        while (!backlog.isEmpty())
            sent.apply(backlog.take(1 + rng.bounded(5), views));
        QCOMPARE(sent.rowCount(), direct.rowCount());
        QCOMPARE(sent.rowCount(), int(views.size()));
        for (const LockView& v : std::as_const(views)) {
            QVERIFY2(sent.find(v.resource), v.resource.constData());
            QCOMPARE(sent.find(v.resource)->token, v.token);
        }
    }
}

LOCKSCOPE_TEST_MAIN(TestUiViewBacklog)

} // namespace tst_uiviewbacklog

#include "tst_uiviewbacklog.moc"
