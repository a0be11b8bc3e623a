// SPDX-License-Identifier: Apache-2.0
// Issue #20, the menus as a new user explores them: enabling keyspace events from the toolbar (the
// button docs/manual/statuses.md names; a write, confirmed and refused in read-only mode), the quick
// filters and the demo scenarios in menus with shortcuts, "Expiring soon" saying its threshold, and
// Help with what each status means (the same texts as the manual's table, docs/manual/statuses.md)
// and the command-line reference.
#include "demo/demoscenariorunner.h"
#include "demo/demosession.h"
#include "livedemo/demomenu.h"
#include "livedemo/demopanel.h"
#include "locks/lockfilterproxy.h"
#include "masters/mastertablemodel.h"
#include "support/pollingmasters.h"
#include "support/redisservergroup.h"
#include "support/testpaths.h"
#include "support/testregistry.h"
#include "support/testsettings.h"
#include "widgets/statusstyle.h"
#include "window/commandlinehelpdialog.h"
#include "window/mainwindow.h"
#include "window/statushelpdialog.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>

namespace tst_uimenus {

using namespace lockscope;
using namespace lockscope::test;

namespace {

QMenu* menuNamed(QMainWindow& window, const QString& title)
{
    for (QAction* a : window.menuBar()->actions())
        if (a->menu() && a->text().remove(QLatin1Char('&')) == title)
            return a->menu();
    return nullptr;
}

QAction* entry(QMenu* menu, const QString& textPart)
{
    if (!menu)
        return nullptr;
    for (QAction* a : menu->actions())
        if (a->text().remove(QLatin1Char('&')).contains(textPart))
            return a;
    return nullptr;
}

// Answers the next question box with `button`, as a user would; true once it did.
struct Answer
{
    explicit Answer(QMessageBox::StandardButton button)
    {
        QObject::connect(&timer, &QTimer::timeout, [this, button] {
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
                    text = box->text();
                    answered = true;
                    timer.stop();
                    box->button(button)->click();
                }
        });
        timer.start(20);
    }
    QTimer timer;
    bool answered = false;
    QString text;
};

bool polling(const MainWindow& window)
{
    return window.masterModel()->rowCount() > 0 &&
           window.masterModel()->snapshot(0).mode == NotificationMode::Polling &&
           window.masterModel()->snapshot(0).state == RedisConnection::State::Up;
}

// A row of the manual's status table (docs/manual/statuses.md), without its Markdown:
// "| **held** | … | … |".
QString manualRow(const QString& name)
{
    QFile file(sourcePath(QStringLiteral("docs/manual/statuses.md")));
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n')))
        if (line.startsWith(QStringLiteral("| **%1** |").arg(name)) ||
            line.startsWith(QStringLiteral("| *%1* ").arg(name)))
            return QString(line).remove(QLatin1Char('`')).remove(QStringLiteral("**"));
    return QString();
}

} // namespace

class TestUiMenus : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void enableKeyspaceEventsFromTheToolbar();
    void enableKeyspaceEventsRefusedWhenReadOnly();
    void quickFiltersHaveMenuEntriesAndShortcuts();
    void expiringSoonSaysItsThreshold();
    void helpExplainsEveryStatusAsTheManualDoes();
    void helpHasTheCommandLineReference();
    void demoScenariosHaveAMenuOnlyInTheDemo();

private:
    QString audit() const { return m_dir.filePath(QStringLiteral("audit.jsonl")); }
    QTemporaryDir m_dir;
};

void TestUiMenus::init()
{
    QVERIFY(m_dir.isValid());
    useTestSettings(m_dir.path(), QStringLiteral("tst_uimenus"));
}

void TestUiMenus::enableKeyspaceEventsFromTheToolbar()
{
    RedisServerGroup group;
    LockScopeConfig config;
    QVERIFY2(startPollingMasters(group, 1, config), qPrintable(group.errorString()));
    MainWindow window(config, audit());
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(polling(window), 5000);
    // A button, where the manual says (docs/manual/statuses.md): on the toolbar.
    QAction* enable = nullptr;
    for (QToolBar* bar : window.findChildren<QToolBar*>())
        for (QAction* a : bar->actions())
            if (a->text().remove(QLatin1Char('&')).contains(QStringLiteral("keyspace events")))
                enable = a;
    QVERIFY2(enable, "no Enable keyspace events on the toolbar");
    QTRY_VERIFY2(enable->isEnabled(), qPrintable(enable->toolTip()));

    // Asked first: "No" changes nothing.
    {
        Answer no(QMessageBox::No);
        enable->trigger();
        QVERIFY(no.answered);
        QVERIFY2(no.text.contains(window.masterModel()->snapshot(0).name), qPrintable(no.text));
    }
    QCOMPARE(notifyFlags(group.at(0)), QByteArray());
    {
        Answer yes(QMessageBox::Yes);
        enable->trigger();
        QVERIFY(yes.answered);
    }
    QTRY_VERIFY_WITH_TIMEOUT(notifyFlags(group.at(0)).contains('K'), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->snapshot(0).mode, NotificationMode::Live, 5000);
    QFile log(audit());
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY(log.readAll().contains("enable-events"));
    // Nothing left to enable: greyed, and it says why.
    QTRY_VERIFY(!enable->isEnabled());
    QVERIFY2(enable->toolTip().contains(QStringLiteral("already")), qPrintable(enable->toolTip()));
}

void TestUiMenus::enableKeyspaceEventsRefusedWhenReadOnly()
{
    RedisServerGroup group;
    LockScopeConfig config;
    QVERIFY2(startPollingMasters(group, 1, config), qPrintable(group.errorString()));
    config.readOnly = true;
    MainWindow window(config, audit());
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(polling(window), 5000);
    QAction* enable = window.enableEventsAction();
    QVERIFY(enable);
    QTRY_VERIFY(enable->toolTip().contains(QStringLiteral("Read-only")));
    QVERIFY(!enable->isEnabled());
    Answer any(QMessageBox::Yes);
    enable->trigger();
    QTest::qWait(200); // no question to answer: nothing was asked
    QVERIFY(!any.answered);
    QCOMPARE(notifyFlags(group.at(0)), QByteArray());
}

void TestUiMenus::quickFiltersHaveMenuEntriesAndShortcuts()
{
    MainWindow window(LockScopeConfig(), audit());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QMenu* filter = menuNamed(window, QStringLiteral("Filter"));
    QVERIFY2(filter, "no Filter menu");
    const QList<std::pair<QString, LockFilterProxy::QuickFilter>> quick{
        {QStringLiteral("Stuck"), LockFilterProxy::StuckFilter},
        {QStringLiteral("Contested"), LockFilterProxy::ContestedFilter},
        {QStringLiteral("Partial"), LockFilterProxy::PartialFilter},
        {QStringLiteral("Expiring soon"), LockFilterProxy::ExpiringSoonFilter},
    };
    for (const auto& [name, flag] : quick) {
        QAction* a = entry(filter, name);
        QVERIFY2(a, qPrintable(name));
        QVERIFY2(!a->shortcut().isEmpty(), qPrintable(name));
        QVERIFY(a->isCheckable());
        a->trigger();
        QVERIFY2(window.lockProxy()->quickFilters().testFlag(flag), qPrintable(name));
        // The button beside the filter field shows it too.
        bool buttonChecked = false;
        for (QToolButton* b : window.findChildren<QToolButton*>())
            if (b->property("quickFilter").toInt() == int(flag))
                buttonChecked = b->isChecked();
        QVERIFY2(buttonChecked, qPrintable(name));
        a->trigger();
        QVERIFY(!window.lockProxy()->quickFilters().testFlag(flag));
    }
    // And the shortcut itself, pressed in the window.
    QAction* contested = entry(filter, QStringLiteral("Contested"));
    window.activateWindow();
    if (QTest::qWaitForWindowActive(&window)) {
        QTest::keySequence(&window, contested->shortcut());
        QTRY_VERIFY(window.lockProxy()->quickFilters().testFlag(LockFilterProxy::ContestedFilter));
    }
}

void TestUiMenus::expiringSoonSaysItsThreshold()
{
    MainWindow window(LockScopeConfig(), audit());
    const QString threshold = QStringLiteral("%1 s").arg(window.lockProxy()->expiringSoonMs() / 1000);
    QToolButton* button = nullptr;
    for (QToolButton* b : window.findChildren<QToolButton*>())
        if (b->property("quickFilter").toInt() == int(LockFilterProxy::ExpiringSoonFilter))
            button = b;
    QVERIFY(button);
    QVERIFY2(button->text().contains(threshold), qPrintable(button->text()));
    QVERIFY2(button->toolTip().contains(threshold), qPrintable(button->toolTip()));
    QAction* a = entry(menuNamed(window, QStringLiteral("Filter")), QStringLiteral("Expiring soon"));
    QVERIFY(a);
    QVERIFY2(a->text().contains(threshold), qPrintable(a->text()));
}

void TestUiMenus::helpExplainsEveryStatusAsTheManualDoes()
{
    MainWindow window(LockScopeConfig(), audit());
    window.show();
    QAction* help = entry(menuNamed(window, QStringLiteral("Help")), QStringLiteral("status"));
    QVERIFY2(help, "no Help entry for what each status means");
    help->trigger();
    auto* dialog = window.findChild<StatusHelpDialog*>();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    QTableWidget* table = dialog->table();
    QString shown;
    for (int r = 0; r < table->rowCount(); ++r)
        for (int c = 0; c < table->columnCount(); ++c)
            shown += table->item(r, c)->text() + QLatin1Char('\n');
    for (LockStatus s : {LockStatus::Held, LockStatus::Partial, LockStatus::Contested, LockStatus::Stuck,
                         LockStatus::Unknown}) {
        // The window's own texts (tooltips, detail pane)…
        QVERIFY2(shown.contains(StatusStyle::statusText(s)), qPrintable(StatusStyle::statusText(s)));
        QVERIFY2(shown.contains(StatusStyle::statusExplanation(s)),
                 qPrintable(StatusStyle::statusExplanation(s)));
        QVERIFY2(shown.contains(StatusStyle::statusAdvice(s)), qPrintable(StatusStyle::statusAdvice(s)));
        // … are the manual's.
        const QString row = manualRow(StatusStyle::statusText(s));
        QVERIFY2(!row.isEmpty(), qPrintable(StatusStyle::statusText(s)));
        QVERIFY2(row.contains(StatusStyle::statusExplanation(s)),
                 qPrintable(row + QStringLiteral("\n  lacks: ") + StatusStyle::statusExplanation(s)));
        QVERIFY2(row.contains(StatusStyle::statusAdvice(s)),
                 qPrintable(row + QStringLiteral("\n  lacks: ") + StatusStyle::statusAdvice(s)));
    }
    const QString risk = manualRow(QStringLiteral("at risk"));
    QVERIFY2(risk.contains(StatusStyle::atRiskExplanation()), qPrintable(risk));
    QVERIFY2(risk.contains(StatusStyle::atRiskAdvice()), qPrintable(risk));
    QVERIFY(shown.contains(StatusStyle::atRiskExplanation()));
    // Each row as tall as its wrapped text, not more: the whole table reads without scrolling.
    QTest::qWait(50);
    for (int r = 0; r < table->rowCount(); ++r)
        QVERIFY2(table->rowHeight(r) <= 4 * table->fontMetrics().lineSpacing() + 12,
                 qPrintable(QStringLiteral("row %1 is %2 px tall").arg(r).arg(table->rowHeight(r))));
}

void TestUiMenus::helpHasTheCommandLineReference()
{
    MainWindow window(LockScopeConfig(), audit());
    window.show();
    QAction* help = entry(menuNamed(window, QStringLiteral("Help")), QStringLiteral("Command-line"));
    QVERIFY2(help, "no Help entry for the command line");
    help->trigger();
    auto* dialog = window.findChild<CommandLineHelpDialog*>();
    QVERIFY(dialog);
    QVERIFY2(dialog->usage()->toPlainText().contains(QStringLiteral("--read-only")),
             qPrintable(dialog->usage()->toPlainText()));
    const QString where = dialog->whereLabel()->text();
    QVERIFY2(!where.contains(QStringLiteral("no man pages")), qPrintable(where));
    QVERIFY(dialog->whereLabel()->openExternalLinks());
    for (const QString& name : {QStringLiteral("lockctl"), QStringLiteral("lockscope")}) {
        // A link to the page: man:NAME(1) where it is installed, else its source in this tree.
        const QUrl url = CommandLineHelpDialog::manPageUrl(name);
        QVERIFY2(url == QUrl(QStringLiteral("man:%1(1)").arg(name)) ||
                     (url.isLocalFile() &&
                      url.toLocalFile().endsWith(QStringLiteral("/docs/man/%1.1").arg(name)) &&
                      QFileInfo(url.toLocalFile()).isFile()),
                 qPrintable(url.toString()));
        const QString link =
            QStringLiteral("<a href=\"%1\">%2(1)</a>").arg(url.toString().toHtmlEscaped(), name);
        QVERIFY2(where.contains(link), qPrintable(link + QLatin1String(" not in ") + where));
    }
    QVERIFY2(where.contains(QStringLiteral("lockctl --help")), qPrintable(where));
}

void TestUiMenus::demoScenariosHaveAMenuOnlyInTheDemo()
{
    {
        MainWindow plain(LockScopeConfig(), audit());
        QVERIFY2(!menuNamed(plain, QStringLiteral("Demo")), "a Demo menu without the demo");
    }
    DemoSession session;
    MainWindow window(LockScopeConfig(), audit());
    // As main() builds the demo window.
    auto* dock = new QDockWidget(QStringLiteral("Redlock demo"), &window);
    dock->setObjectName(QStringLiteral("demoDock"));
    auto* panel = new DemoPanel(&session, dock);
    dock->setWidget(panel);
    window.addDockWidget(Qt::RightDockWidgetArea, dock);
    new DemoMenu(&window, panel);
    window.show();
    QMenu* demo = menuNamed(window, QStringLiteral("Demo"));
    QVERIFY2(demo, "no Demo menu in the demo");
    // Before Help, which stays last.
    const QList<QAction*> top = window.menuBar()->actions();
    QCOMPARE(top.last()->text().remove(QLatin1Char('&')), QStringLiteral("Help"));
    QCOMPARE(top.at(top.size() - 2)->menu(), demo);
    const QList<DemoScenario> scenarios = allDemoScenarios();
    // The scenarios, a separator, and Renew the sample locks (issue #41).
    QCOMPARE(demo->actions().size(), scenarios.size() + 2);
    QCOMPARE(demo->actions().last()->objectName(), QStringLiteral("renewSamples"));
    for (int i = 0; i < scenarios.size(); ++i) {
        QAction* a = demo->actions().at(i);
        QCOMPARE(a->text(), demoScenarioTitle(scenarios.at(i)));
        QVERIFY2(!a->shortcut().isEmpty(), qPrintable(a->text()));
        QVERIFY(!a->isEnabled()); // the demo masters are not up yet, as the panel's buttons say
    }
    QSignalSpy ready(&session, &DemoSession::ready);
    session.start();
    QVERIFY(ready.wait(int(lockscope::test::upperBoundMs(30000))));
    QTRY_VERIFY(demo->actions().first()->isEnabled());
    // The menu entry runs the panel's scenario, the same way its button does.
    QSignalSpy started(session.scenarios(), &DemoScenarioRunner::started);
    demo->actions().first()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!started.isEmpty(), 10000);
    QCOMPARE(started.first().first().value<DemoScenario>(), scenarios.first());
}

LOCKSCOPE_TEST_MAIN(TestUiMenus)

} // namespace tst_uimenus

#include "tst_uimenus.moc"
