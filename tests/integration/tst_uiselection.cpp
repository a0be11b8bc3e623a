// SPDX-License-Identifier: Apache-2.0
#include "detail/lockdetailpane.h"
#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "session/corethread.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uiselection {

using namespace lockscope;
using namespace lockscope::test;

namespace {

void setOnAll(RedisServerGroup& group, const QByteArrayList& argv)
{
    for (int i = 0; i < group.size(); ++i)
        QVERIFY(!group.at(i).command(argv).isError());
}

// Nothing selected, as the user sees it: no current row, no highlighted row, no lock in the pane,
// and no action that needs a lock.
void verifyNothingSelected(MainWindow& window)
{
    QCOMPARE(window.lockView()->currentResource(), QByteArray());
    QVERIFY2(!window.lockView()->currentIndex().isValid(),
             qPrintable(window.lockView()->currentIndex().data(LockTableModel::ResourceRole).toString()));
    QVERIFY(window.lockView()->selectionModel()->selectedRows().isEmpty());
    QVERIFY(!window.detailPane()->view().has_value());
    QVERIFY(!window.forceReleaseAction()->isEnabled());
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text().contains(QStringLiteral("Extend")) || a->text().contains(QStringLiteral("Re&lease")))
            QVERIFY2(!a->isEnabled(), qPrintable(a->text()));
}

} // namespace

class TestUiSelection : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void releasedLockLeavesNothingSelected();
    void expiredLockLeavesNothingSelected();
    void filterChangeKeepsAMatchingSelection();
    void acquiredLockBecomesTheSelection();
    void aRowThatIsOnlyCurrentIsNoTarget();

private:
    QTemporaryDir m_dir;
};

void TestUiSelection::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiselection"));
}

void TestUiSelection::releasedLockLeavesNothingSelected()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    for (const char* key : {"lock:a", "lock:b", "lock:c"})
        setOnAll(group, {"SET", key, QByteArray("tok-") + key, "PX", "60000"});
    MainWindow window(quickConfig(group), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 3, 5000);
    window.lockView()->selectResource("lock:b");
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:b"));
    QVERIFY(window.forceReleaseAction()->isEnabled());

    // Released by its holder: the rows next to it (lock:a, lock:c) must not inherit the selection.
    setOnAll(group, {"DEL", "lock:b"});
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 2, 5000);
    verifyNothingSelected(window);
    QVERIFY2(window.detailPane()->titleLabel()->text().contains(QStringLiteral("gone")),
             qPrintable(window.detailPane()->titleLabel()->text()));

    // Choosing another lock works as before, and the pane shows it.
    window.lockView()->selectResource("lock:c");
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:c"));
    QCOMPARE(window.detailPane()->view()->resource, QByteArray("lock:c"));
    QVERIFY(window.forceReleaseAction()->isEnabled());
}

void TestUiSelection::expiredLockLeavesNothingSelected()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    setOnAll(group, {"SET", "lock:a", "tok-a", "PX", "60000"});
    setOnAll(group, {"SET", "lock:b", "tok-b", "PX", "60000"});
    MainWindow window(quickConfig(group), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 2, 5000);
    window.lockView()->selectResource("lock:b");
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:b"));
    // The last row expires: Qt would move the current row up onto lock:a. Its lease is cut short
    // only now: a 4 s one, set before the window opened, could run out before a loaded machine
    // showed the row.
    setOnAll(group, {"PEXPIRE", "lock:b", "1"});
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 1, 15000);
    verifyNothingSelected(window);
    QVERIFY2(window.detailPane()->titleLabel()->text().contains(QStringLiteral("gone")),
             qPrintable(window.detailPane()->titleLabel()->text()));
}

void TestUiSelection::filterChangeKeepsAMatchingSelection()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    // Enough interleaved rows that a filter takes out hundreds of separate runs (the proxy then
    // resets rather than removing run after run).
    const int pairs = 700;
    QVERIFY(!group.at(0)
                 .command({"EVAL",
                           "for i = 0, tonumber(ARGV[1]) - 1 do "
                           "redis.call('SET', string.format('lock:%04d:even', i), 't' .. i, 'PX', 120000) "
                           "redis.call('SET', string.format('lock:%04d:odd', i), 'u' .. i, 'PX', 120000) end",
                           "0", QByteArray::number(pairs)})
                 .isError());
    MainWindow window(quickConfig(group), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 2 * pairs, 10000);
    auto* filter = window.findChild<QLineEdit*>();
    QVERIFY(filter);

    window.lockView()->selectResource("lock:0300:even");
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:0300:even"));
    QSignalSpy reset(window.lockProxy(), &QAbstractItemModel::modelReset);
    filter->setText(QStringLiteral("even"));
    QCOMPARE(window.lockProxy()->rowCount(), pairs);
    QVERIFY(!reset.isEmpty()); // the path that lost the selection
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:0300:even"));
    QCOMPARE(window.lockView()->currentIndex().data(LockTableModel::ResourceRole).toByteArray(),
             QByteArray("lock:0300:even"));
    QCOMPARE(window.lockView()->selectionModel()->selectedRows().size(), 1);
    QCOMPARE(window.detailPane()->view()->resource, QByteArray("lock:0300:even"));

    // A few rows only (removed one run at a time): the selection stays too.
    filter->setText(QStringLiteral("lock:03"));
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:0300:even"));
    filter->setText(QStringLiteral("lock:030*:even"));
    QCOMPARE(window.lockProxy()->rowCount(), 10);
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:0300:even"));

    // A filter the selected lock does not match: nothing selected, not a neighbour.
    filter->setText(QStringLiteral("lock:030*:odd"));
    QCOMPARE(window.lockProxy()->rowCount(), 10);
    verifyNothingSelected(window);
    QVERIFY2(window.detailPane()->titleLabel()->text().contains(QStringLiteral("No lock selected")),
             qPrintable(window.detailPane()->titleLabel()->text()));
    // Back to a filter it matches: still nothing selected (it was cleared, not hidden).
    filter->setText(QString());
    QCOMPARE(window.lockView()->currentResource(), QByteArray());
}

void TestUiSelection::acquiredLockBecomesTheSelection()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    setOnAll(group, {"SET", "lock:a", "tok-a", "PX", "60000"});
    MainWindow window(quickConfig(group), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 1, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(window.acquireAction()->isEnabled(), 5000);
    window.lockView()->selectResource("lock:a");
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:a"));

    window.core()->request(&CoreService::acquire, "lock:mine", 30000, 0, false);
    QTRY_COMPARE_WITH_TIMEOUT(window.lockView()->currentResource(), QByteArray("lock:mine"), 5000);
    QCOMPARE(window.detailPane()->view()->resource, QByteArray("lock:mine"));
    // Ours: it can be extended and released from here.
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == QStringLiteral("&Extend") || a->text() == QStringLiteral("Re&lease"))
            QTRY_VERIFY2_WITH_TIMEOUT(a->isEnabled(), qPrintable(a->text()), 5000);
}

void TestUiSelection::aRowThatIsOnlyCurrentIsNoTarget()
{
    // A new user's walk (issue #41): the first row only faintly framed (current, not selected), and
    // the toolbar's Force-release opened the delete dialog for it.
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    for (const char* key : {"lock:a", "lock:b"})
        setOnAll(group, {"SET", key, QByteArray("tok-") + key, "PX", "60000"});
    MainWindow window(quickConfig(group), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 2, 5000);
    QItemSelectionModel* selection = window.lockView()->selectionModel();
    const auto verifyNoTarget = [&] {
        QVERIFY(selection->currentIndex().isValid());
        QVERIFY(selection->selectedRows().isEmpty());
        QCOMPARE(window.lockView()->currentResource(), QByteArray());
        QVERIFY(!window.detailPane()->view().has_value());
        QVERIFY(!window.forceReleaseAction()->isEnabled());
    };

    // What the table does when it gets the focus: the first row becomes current, nothing selected.
    selection->setCurrentIndex(window.lockProxy()->index(0, 0), QItemSelectionModel::NoUpdate);
    verifyNoTarget();
    if (QTest::currentTestFailed())
        return;

    // Chosen, then deselected by the user (Ctrl+click): the row stays current, framed only.
    window.lockView()->selectResource("lock:b");
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:b"));
    QVERIFY(window.forceReleaseAction()->isEnabled());
    selection->select(selection->currentIndex(), QItemSelectionModel::Deselect | QItemSelectionModel::Rows);
    verifyNoTarget();
    if (QTest::currentTestFailed())
        return;

    // Selecting the current row again makes it the target.
    selection->select(selection->currentIndex(), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(window.lockView()->currentResource(), QByteArray("lock:b"));
    QVERIFY(window.forceReleaseAction()->isEnabled());
}

LOCKSCOPE_TEST_MAIN(TestUiSelection)

} // namespace tst_uiselection

#include "tst_uiselection.moc"
