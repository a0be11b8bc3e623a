// SPDX-License-Identifier: Apache-2.0
// Issue #20: a greyed action says why in its tooltip (and status tip): read-only, the audit log
// cannot be written, not this window's lock, no quorum, no masters, nothing selected.
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "masters/mastertablemodel.h"
#include "session/corethread.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uiactionreasons {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// Greyed, and its tooltip and status tip both name the reason.
bool greyedBecause(const QAction* action, const QString& reason)
{
    return !action->isEnabled() && action->toolTip().contains(reason, Qt::CaseInsensitive) &&
           action->statusTip().contains(reason, Qt::CaseInsensitive);
}

QString describe(const QAction* action)
{
    return QStringLiteral("%1 enabled=%2 tooltip=[%3]")
        .arg(action->text())
        .arg(action->isEnabled())
        .arg(action->toolTip());
}

} // namespace

class TestUiActionReasons : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void noMasters();
    void readOnly();
    void auditLogUnwritable();
    void nothingSelected();
    void notYourLock();
    void noQuorum();
    void menusShowTheTooltips();

private:
    QString audit() const { return m_dir.filePath(QStringLiteral("state/audit.jsonl")); }
    QTemporaryDir m_dir;
};

void TestUiActionReasons::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiactionreasons"));
}

void TestUiActionReasons::noMasters()
{
    MainWindow window(LockScopeConfig(), audit());
    window.show();
    QTRY_VERIFY2_WITH_TIMEOUT(greyedBecause(window.acquireAction(), QStringLiteral("No masters")),
                              qPrintable(describe(window.acquireAction())), 3000);
}

void TestUiActionReasons::readOnly()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    LockScopeConfig config = quickConfig(group);
    config.readOnly = true;
    MainWindow window(config, audit());
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 1, 5000);
    QVERIFY2(greyedBecause(window.acquireAction(), QStringLiteral("read-only")),
             qPrintable(describe(window.acquireAction())));
}

void TestUiActionReasons::auditLogUnwritable()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    // A file where the audit log's directory should be: it cannot be created.
    const QString blocker = m_dir.filePath(QStringLiteral("blocker"));
    {
        QFile file(blocker);
        QVERIFY(file.open(QIODevice::WriteOnly));
    }
    MainWindow window(quickConfig(group), blocker + QStringLiteral("/audit.jsonl"));
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 1, 5000);
    QTRY_VERIFY2_WITH_TIMEOUT(greyedBecause(window.acquireAction(), QStringLiteral("audit log")),
                              qPrintable(describe(window.acquireAction())), 3000);
}

void TestUiActionReasons::nothingSelected()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    MainWindow window(quickConfig(group), audit());
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 1, 5000);
    QTRY_VERIFY2_WITH_TIMEOUT(window.acquireAction()->isEnabled(),
                              qPrintable(describe(window.acquireAction())), 3000);
    QVERIFY2(!window.acquireAction()->toolTip().contains(QStringLiteral("Unavailable")),
             qPrintable(describe(window.acquireAction())));
    for (QAction* a : {window.extendAction(), window.releaseAction(), window.forceReleaseAction(),
                       window.copyResourceAction()})
        QVERIFY2(greyedBecause(a, QStringLiteral("Nothing selected")), qPrintable(describe(a)));
}

void TestUiActionReasons::notYourLock()
{
    RedisServerGroup group;
    QVERIFY2(group.start(1), qPrintable(group.errorString()));
    group.at(0).command({"SET", "lock:theirs", "someone-else", "PX", "60000"});
    MainWindow window(quickConfig(group), audit());
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 1, 5000);
    window.lockView()->selectResource("lock:theirs");
    for (QAction* a : {window.extendAction(), window.releaseAction()})
        QTRY_VERIFY2_WITH_TIMEOUT(greyedBecause(a, QStringLiteral("this window's token")),
                                  qPrintable(describe(a)), 3000);
    QVERIFY2(window.forceReleaseAction()->isEnabled(), qPrintable(describe(window.forceReleaseAction())));

    // This window's own lock: release and extend are there, with no reason against them.
    window.core()->request(&CoreService::acquire, "lock:mine", 60000, 0, false);
    QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->rowOf("lock:mine") >= 0, 5000);
    window.lockView()->selectResource("lock:mine");
    for (QAction* a : {window.extendAction(), window.releaseAction()}) {
        QTRY_VERIFY2_WITH_TIMEOUT(a->isEnabled(), qPrintable(describe(a)), 5000);
        QVERIFY2(!a->toolTip().contains(QStringLiteral("Unavailable")), qPrintable(describe(a)));
    }
}

void TestUiActionReasons::noQuorum()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    MainWindow window(quickConfig(group), audit());
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 3, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(window.acquireAction()->isEnabled(), 3000);
    group.at(1).stop();
    group.at(2).stop();
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 1, 5000);
    QTRY_VERIFY2_WITH_TIMEOUT(greyedBecause(window.acquireAction(), QStringLiteral("quorum")),
                              qPrintable(describe(window.acquireAction())), 3000);
    // The numbers a user needs: how many answer, how many it takes.
    QVERIFY2(window.acquireAction()->toolTip().contains(QStringLiteral("1 of 3")),
             qPrintable(describe(window.acquireAction())));
    QVERIFY2(window.acquireAction()->toolTip().contains(QStringLiteral("needs 2")),
             qPrintable(describe(window.acquireAction())));
}

void TestUiActionReasons::menusShowTheTooltips()
{
    MainWindow window(LockScopeConfig(), audit());
    bool found = false;
    for (QAction* top : window.menuBar()->actions())
        if (QMenu* menu = top->menu(); menu && menu->actions().contains(window.acquireAction())) {
            found = true;
            QVERIFY2(menu->toolTipsVisible(), qPrintable(menu->title()));
        }
    QVERIFY(found);
}

LOCKSCOPE_TEST_MAIN(TestUiActionReasons)

} // namespace tst_uiactionreasons

#include "tst_uiactionreasons.moc"
