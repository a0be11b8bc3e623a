// SPDX-License-Identifier: Apache-2.0
// Issue #41, point 12: the smaller things a new user met walking through the window, each as the
// user meets it (keys pressed, widgets on screen).
#include "detail/lockdetailpane.h"
#include "eventlog/eventlogdock.h"
#include "insights/insightsdock.h"
#include "locks/lockfilterbar.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "masters/mastertablemodel.h"
#include "support/quickconfig.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "widgets/statusstyle.h"
#include "window/mainwindow.h"
#include "writes/forcereleasedialog.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

namespace tst_uiwalkthrough {

using namespace lockscope;
using namespace lockscope::test;

class TestUiWalkthrough : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void downInTheFilterMovesIntoTheResults();
    void tabFromTheFilterReachesTheTable();
    void shiftDelInTheFilterIsForceRelease();
    void anotherLockIsReadFromTheTop();
    void mastersAreNamedAsEverywhereElse();
    void noScanningForeverBesideARefusedPassword();
    void zoomMakesTheTextLargerForAProjector();
    void aFirstStartOpensOnTheEventLog();

private:
    QTemporaryDir m_dir;
    RedisServerGroup m_group;
    std::unique_ptr<MainWindow> m_window;
};

void TestUiWalkthrough::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiwalkthrough"));
    QVERIFY2(m_group.start(3), qPrintable(m_group.errorString()));
}

void TestUiWalkthrough::init()
{
    for (int i = 0; i < m_group.size(); ++i)
        m_group.at(i).command({"FLUSHALL"});
    for (const char* key : {"lock:a", "lock:b", "lock:c"})
        for (int i = 0; i < m_group.size(); ++i)
            m_group.at(i).command({"SET", key, QByteArray("tok-") + key, "PX", "600000"});
    m_window =
        std::make_unique<MainWindow>(quickConfig(m_group), m_dir.filePath(QStringLiteral("audit.jsonl")));
    m_window->resize(1366, 768);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTRY_COMPARE_WITH_TIMEOUT(m_window->lockModel()->rowCount(), 3, 10000);
}

void TestUiWalkthrough::cleanup()
{
    m_window.reset();
}

void TestUiWalkthrough::downInTheFilterMovesIntoTheResults()
{
    auto* filter = m_window->findChild<LockFilterBar*>();
    QVERIFY(filter);
    filter->focusText();
    QTest::keyClicks(filter->textEdit(), QStringLiteral("lock:b"));
    QTRY_COMPARE(m_window->lockView()->model()->rowCount(), 1);
    QTest::keyClick(filter->textEdit(), Qt::Key_Down);
    QCOMPARE(QApplication::focusWidget(), m_window->lockView());
    // Onto the one result, highlighted: a selection the user can see, which a write may act on.
    QCOMPARE(m_window->lockView()->selectionModel()->selectedRows().size(), 1);
    QCOMPARE(m_window->lockView()->currentResource(), QByteArray("lock:b"));
    QTRY_VERIFY(m_window->forceReleaseAction()->isEnabled());
}

void TestUiWalkthrough::tabFromTheFilterReachesTheTable()
{
    auto* filter = m_window->findChild<LockFilterBar*>();
    filter->focusText();
    // Past the filter's own quick buttons, the next stop is the table it filters.
    QWidget* reached = nullptr;
    for (int i = 0; i < 8 && reached != m_window->lockView(); ++i) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        reached = QApplication::focusWidget();
        QVERIFY2(reached && (filter->isAncestorOf(reached) || reached == m_window->lockView()),
                 qPrintable(QStringLiteral("Tab %1 went to %2")
                                .arg(i + 1)
                                .arg(reached ? QString::fromLatin1(reached->metaObject()->className())
                                             : QStringLiteral("nothing"))));
    }
    QCOMPARE(reached, m_window->lockView());
}

void TestUiWalkthrough::shiftDelInTheFilterIsForceRelease()
{
    m_window->lockView()->selectResource("lock:c");
    QTRY_VERIFY(m_window->forceReleaseAction()->isEnabled());
    auto* filter = m_window->findChild<LockFilterBar*>();
    filter->focusText();
    QCOMPARE(QApplication::focusWidget(), filter->textEdit());
    QTest::keyClick(filter->textEdit(), Qt::Key_Delete, Qt::ShiftModifier);
    auto* dialog = m_window->findChild<ForceReleaseDialog*>();
    QVERIFY2(dialog, "Shift+Del in the filter opened no force-release");
    QCOMPARE(dialog->windowTitle(), QStringLiteral("Force-release lock:c"));
    dialog->reject();
}

void TestUiWalkthrough::anotherLockIsReadFromTheTop()
{
    // A pane scrolled down on one lock shows the next from its title, and a "lock is gone" message
    // from its first line.
    m_window->lockView()->selectResource("lock:a");
    QTRY_VERIFY(m_window->detailPane()->view().has_value());
    auto* scroll = m_window->detailPane()->findChild<QScrollArea*>(QStringLiteral("detailScroll"));
    QVERIFY(scroll);
    m_window->detailPane()->setMaximumHeight(90); // little room: the pane scrolls
    QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 0);
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    m_window->lockView()->selectResource("lock:b");
    QTRY_COMPARE(m_window->detailPane()->view()->resource, QByteArray("lock:b"));
    QCOMPARE(scroll->verticalScrollBar()->value(), 0);
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    for (int i = 0; i < m_group.size(); ++i)
        m_group.at(i).command({"DEL", "lock:b"});
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->detailPane()->view().has_value(), 5000);
    QCOMPARE(scroll->verticalScrollBar()->value(), 0);
}

void TestUiWalkthrough::mastersAreNamedAsEverywhereElse()
{
    MasterTableModel* model = m_window->masterModel();
    for (int m = 0; m < 3; ++m)
        QVERIFY2(model->index(m, MasterTableModel::MasterColumn)
                     .data()
                     .toString()
                     .startsWith(QStringLiteral("M%1  redis://").arg(m + 1)),
                 qPrintable(model->index(m, MasterTableModel::MasterColumn).data().toString()));
    // The longest state fits its column whole: "DOWN, retrying" was cut.
    auto* view = m_window->findChild<QTreeView*>(QStringLiteral("masters"));
    QVERIFY(view);
    const QString longest = StatusStyle::masterStateText(RedisConnection::State::Reconnecting);
    QVERIFY2(view->columnWidth(MasterTableModel::StateColumn) >=
                 view->fontMetrics().horizontalAdvance(longest) + 12,
             qPrintable(QString::number(view->columnWidth(MasterTableModel::StateColumn))));
}

void TestUiWalkthrough::noScanningForeverBesideARefusedPassword()
{
    // The only master refuses the password: nothing is scanned, and "scanning 0%" stayed for ever.
    m_window.reset();
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    ConnectionOptions wrong = server.connectionOptions(1000);
    wrong.url.setPassword(QStringLiteral("not-the-password"));
    MainWindow window(quickConfig({wrong}), m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* bar = window.findChild<QProgressBar*>();
    QVERIFY(bar);
    QTRY_VERIFY_WITH_TIMEOUT(
        window.masterModel()->rowCount() == 1 && !window.masterModel()->snapshot(0).error.isEmpty(), 10000);
    QElapsedTimer watched;
    watched.start();
    while (watched.elapsed() < 1500) {
        QVERIFY2(!bar->isVisible(), qPrintable(bar->text()));
        QTest::qWait(100);
    }
}

void TestUiWalkthrough::zoomMakesTheTextLargerForAProjector()
{
    // View > Zoom (Ctrl+plus, Ctrl+minus, Ctrl+0): presenters asked for a text zoom.
    auto* in = m_window->findChild<QAction*>(QStringLiteral("zoomIn"));
    auto* reset = m_window->findChild<QAction*>(QStringLiteral("zoomReset"));
    QVERIFY(in && reset);
    QCOMPARE(in->shortcuts(), QKeySequence::keyBindings(QKeySequence::ZoomIn));
    const qreal base = QApplication::font().pointSizeF();
    const int rowBefore = m_window->lockView()->verticalHeader()->defaultSectionSize();
    in->trigger();
    in->trigger();
    QCOMPARE(QApplication::font().pointSizeF(), base * 1.25);
    QTRY_VERIFY(m_window->lockView()->verticalHeader()->defaultSectionSize() > rowBefore);
    QCOMPARE(QSettings().value(QStringLiteral("view/zoomPercent")).toInt(), 125);
    reset->trigger();
    QCOMPARE(QApplication::font().pointSizeF(), base);
    QTRY_COMPARE(m_window->lockView()->verticalHeader()->defaultSectionSize(), rowBefore);
}

void TestUiWalkthrough::aFirstStartOpensOnTheEventLog()
{
    // Walked again (session 48): on a first start the bottom docks showed Insights, tabified last,
    // with "Nothing recorded yet", and the event log that says what the masters did was behind it.
    m_window.reset();
    QSettings().clear();
    m_window =
        std::make_unique<MainWindow>(quickConfig(m_group), m_dir.filePath(QStringLiteral("audit.jsonl")));
    m_window->resize(1366, 768);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    auto* events = m_window->findChild<EventLogDock*>();
    auto* insights = m_window->findChild<InsightsDock*>();
    QVERIFY(events && insights);
    QTRY_VERIFY(!events->visibleRegion().isEmpty());
    QVERIFY(insights->visibleRegion().isEmpty());
}

LOCKSCOPE_TEST_MAIN(TestUiWalkthrough)

} // namespace tst_uiwalkthrough

#include "tst_uiwalkthrough.moc"
