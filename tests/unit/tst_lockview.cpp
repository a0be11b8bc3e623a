// SPDX-License-Identifier: Apache-2.0
// A lock's view as the monitor shares it: one view, counted in itself, freed with its last holder.
#include "monitor/lockview.h"
#include "support/testregistry.h"

#include <QTest>

#include <optional>
#include <thread>
#include <vector>

namespace tst_lockview {

using namespace lockscope;

namespace {

// A token whose bytes the view shares: it is detached again once the view is gone.
QByteArray heapToken(int n)
{
    return "tok-" + QByteArray::number(n);
}

LockView viewOf(const QByteArray& token)
{
    LockView v;
    v.token = token;
    return v;
}

} // namespace

class TestLockView : public QObject
{
    Q_OBJECT

private slots:
    void copiesShareOneViewUntilTheLastGoes();
    void aDefaultOrMovedFromHolderReadsAsEmpty();
    void aCopiedViewIsANewOneHeldByNone();
    void holdersInTwoThreads();
    void theReasonOfARisk();
};

void TestLockView::copiesShareOneViewUntilTheLastGoes()
{
    const QByteArray token = heapToken(1);
    {
        LockView v = viewOf(token);
        v.resource = "lock:a";
        SharedLockView a(std::move(v));
        SharedLockView b = a;
        QCOMPARE(&a.view(), &b.view());
        QVERIFY(!token.isDetached());
        a = SharedLockView();
        QVERIFY(!token.isDetached()); // b still holds it
        QCOMPARE(b->token, token);
        SharedLockView c;
        c = b;
        b = c; // assigned its own view back
        QCOMPARE(b->resource, QByteArray("lock:a"));
        QCOMPARE(&b.view(), &c.view());
    }
    QVERIFY(token.isDetached()); // freed with its last holder
}

void TestLockView::aDefaultOrMovedFromHolderReadsAsEmpty()
{
    const SharedLockView none;
    QVERIFY(none->resource.isEmpty());
    QCOMPARE(none->status, LockStatus::Unknown);
    QCOMPARE(none->validityMs, qint64(-1));

    const QByteArray token = heapToken(2);
    SharedLockView a(viewOf(token));
    SharedLockView b(std::move(a));
    QVERIFY(a->token.isEmpty()); // NOLINT(bugprone-use-after-move): a moved-from holder is empty
    QCOMPARE(b->token, token);
    SharedLockView c;
    c = std::move(b);
    QCOMPARE(c->token, token);
    c = SharedLockView();
    QVERIFY(token.isDetached());
}

void TestLockView::aCopiedViewIsANewOneHeldByNone()
{
    const QByteArray token = heapToken(3);
    LockView original = viewOf(token);
    std::optional<SharedLockView> first(std::in_place, original);
    std::optional<SharedLockView> second(std::in_place, **first); // a copy of the view itself
    QVERIFY(&(*first)->token != &(*second)->token);
    first.reset(); // the first view goes; the copy's own count keeps it
    QCOMPARE((*second)->token, token);
    second.reset();
    original = LockView();
    QVERIFY(token.isDetached());
}

// Rows on the GUI thread and the monitor's thread hold the same views: the count is atomic.
void TestLockView::holdersInTwoThreads()
{
    const QByteArray token = heapToken(4);
    {
        const SharedLockView shared(viewOf(token));
        auto churn = [&shared] {
            std::vector<SharedLockView> held;
            for (int i = 0; i < 200000; ++i) {
                held.push_back(shared);
                if (held.size() > 64)
                    held.erase(held.begin(), held.begin() + 32);
            }
        };
        std::thread other(churn);
        churn();
        other.join();
        QVERIFY(!token.isDetached());
    }
    QVERIFY(token.isDetached());
}

void TestLockView::theReasonOfARisk()
{
    LockView v;
    QVERIFY(v.atRiskReason().isEmpty());
    v.setAtRiskReason(QStringLiteral("M2 restarted (new run_id)"));
    const LockView copy = v;
    v.setAtRiskReason(QString());
    QVERIFY(v.atRiskReason().isEmpty());
    QCOMPARE(copy.atRiskReason(), QStringLiteral("M2 restarted (new run_id)"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockView)

} // namespace tst_lockview

#include "tst_lockview.moc"
