// SPDX-License-Identifier: Apache-2.0
// Issue #20: every dock and toolbar can be brought back from the View menu, Reset layout restores
// the default arrangement, and the demo's layout is kept apart from normal sessions'.
#include "support/testregistry.h"
#include "support/testsettings.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

namespace tst_uidocklayout {

using namespace lockscope;

namespace {

QMenu* viewMenu(MainWindow& window)
{
    for (QAction* a : window.menuBar()->actions())
        if (a->text().remove(QLatin1Char('&')) == QLatin1String("View"))
            return a->menu();
    return nullptr;
}

// The View menu as a user sees it: opened.
QList<QAction*> viewEntries(MainWindow& window)
{
    QMenu* menu = viewMenu(window);
    if (!menu)
        return {};
    emit menu->aboutToShow();
    return menu->actions();
}

QAction* entryFor(MainWindow& window, const QString& text)
{
    for (QAction* a : viewEntries(window))
        if (a->isCheckable() && a->text().remove(QLatin1Char('&')).contains(text))
            return a;
    return nullptr;
}

QDockWidget* dock(MainWindow& window, const char* name)
{
    return window.findChild<QDockWidget*>(QLatin1String(name));
}

} // namespace

class TestUiDockLayout : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void closedDocksAndToolbarsComeBackFromView();
    void demoLayoutIsKeptApart();
    void resetLayoutRestoresTheDefaults();

private:
    QString audit() const { return m_dir.filePath(QStringLiteral("audit.jsonl")); }
    QTemporaryDir m_dir;
};

void TestUiDockLayout::init()
{
    QVERIFY(m_dir.isValid());
    test::useTestSettings(m_dir.path(), QStringLiteral("tst_uidocklayout"));
}

void TestUiDockLayout::closedDocksAndToolbarsComeBackFromView()
{
    MainWindow window(LockScopeConfig(), audit());
    // A dock added after the window was built, as main() adds the demo's.
    auto* late = new QDockWidget(QStringLiteral("Redlock demo"), &window);
    late->setObjectName(QStringLiteral("demoDock"));
    late->setWidget(new QLabel(QStringLiteral("demo"), late));
    window.addDockWidget(Qt::RightDockWidgetArea, late);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    for (const char* name : {"mastersDock", "eventsDock", "historyDock", "demoDock"}) {
        QDockWidget* d = dock(window, name);
        QVERIFY2(d, name);
        d->close();
        QTRY_VERIFY(!d->isVisible());
        QAction* entry = entryFor(window, d->windowTitle());
        QVERIFY2(entry, qPrintable(QStringLiteral("%1 is not in the View menu").arg(d->windowTitle())));
        QVERIFY(!entry->isChecked());
        entry->trigger();
        QTRY_VERIFY2(!d->isHidden(), name);
    }
    const QList<QToolBar*> bars = window.findChildren<QToolBar*>();
    QVERIFY(!bars.isEmpty());
    for (QToolBar* bar : bars) {
        bar->hide();
        QAction* entry = entryFor(window, bar->windowTitle());
        QVERIFY2(entry,
                 qPrintable(QStringLiteral("toolbar %1 is not in the View menu").arg(bar->windowTitle())));
        entry->trigger();
        QTRY_VERIFY(bar->isVisible());
    }
}

void TestUiDockLayout::demoLayoutIsKeptApart()
{
    {
        MainWindow normal(LockScopeConfig(), audit());
        normal.show();
        QVERIFY(QTest::qWaitForWindowExposed(&normal));
        QVERIFY(dock(normal, "mastersDock")->isVisible());
        normal.close();
    }
    {
        // The demo: its panel beside the table, the masters closed, the event log moved.
        MainWindow demo(LockScopeConfig(), audit());
        demo.setDemoLayout(true);
        demo.show();
        QVERIFY(QTest::qWaitForWindowExposed(&demo));
        dock(demo, "mastersDock")->close();
        demo.addDockWidget(Qt::LeftDockWidgetArea, dock(demo, "eventsDock"));
        demo.close();
    }
    {
        MainWindow normal(LockScopeConfig(), audit());
        normal.show();
        QVERIFY(QTest::qWaitForWindowExposed(&normal));
        QVERIFY2(dock(normal, "mastersDock")->isVisible(), "the demo's closed Masters dock leaked");
        QCOMPARE(normal.dockWidgetArea(dock(normal, "eventsDock")), Qt::BottomDockWidgetArea);
    }
    {
        // And the demo finds its own layout again.
        MainWindow demo(LockScopeConfig(), audit());
        demo.setDemoLayout(true);
        demo.show();
        QVERIFY(QTest::qWaitForWindowExposed(&demo));
        QVERIFY(!dock(demo, "mastersDock")->isVisible());
        QCOMPARE(demo.dockWidgetArea(dock(demo, "eventsDock")), Qt::LeftDockWidgetArea);
    }
}

void TestUiDockLayout::resetLayoutRestoresTheDefaults()
{
    {
        MainWindow window(LockScopeConfig(), audit());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        dock(window, "mastersDock")->close();
        window.addDockWidget(Qt::LeftDockWidgetArea, dock(window, "eventsDock"));
        window.findChild<QToolBar*>()->hide();
        window.close(); // saved: the next start restores this
    }
    MainWindow window(LockScopeConfig(), audit());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(!dock(window, "mastersDock")->isVisible());
    QAction* reset = nullptr;
    for (QAction* a : viewEntries(window))
        if (a->text().remove(QLatin1Char('&')) == QLatin1String("Reset layout"))
            reset = a;
    QVERIFY2(reset, "no Reset layout in the View menu");
    reset->trigger();
    QTRY_VERIFY(dock(window, "mastersDock")->isVisible());
    QCOMPARE(window.dockWidgetArea(dock(window, "mastersDock")), Qt::TopDockWidgetArea);
    QCOMPARE(window.dockWidgetArea(dock(window, "eventsDock")), Qt::BottomDockWidgetArea);
    QVERIFY(window.findChild<QToolBar*>()->isVisible());
    // Events and history share the bottom as tabs, as at the first start.
    QVERIFY(window.tabifiedDockWidgets(dock(window, "eventsDock")).contains(dock(window, "historyDock")));
}

LOCKSCOPE_TEST_MAIN(TestUiDockLayout)

} // namespace tst_uidocklayout

#include "tst_uidocklayout.moc"
