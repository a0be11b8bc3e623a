// SPDX-License-Identifier: Apache-2.0
// The demo window (main window plus the demo panel and its docks, as `lockscope --demo` builds it)
// on the screens people have: 1366x768 and 1440x900 at 100 %, and 1920x1080 at 150 % (1280x720
// logical pixels).
// Each screen is an offscreen screen of that size (the offscreen platform's configfile), in a child
// process of this test, since the scale factor is fixed when the application starts. The child
// starts the real demo (five redis-servers), lays the window out to fit the screen and reports its
// minimum size and every visible widget that falls outside the window.
#include "demo/demoscenario.h"
#include "demo/demosession.h"
#include "livedemo/demopanel.h"
#include "livedemo/demowindow.h"
#include "locks/locktableview.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

namespace tst_uidemofits {

using namespace lockscope;

namespace {

// Room left for the window manager's title bar and a desktop panel (logical pixels).
constexpr int decorationsHeight = 64;

// A widget inside a scroll area's viewport may lie outside it: it is scrolled to, not cut off.
bool scrolls(const QWidget* w, const QWidget* top)
{
    for (const QWidget* p = w->parentWidget(); p && p != top; p = p->parentWidget())
        if (auto* area = qobject_cast<const QAbstractScrollArea*>(p->parentWidget());
            area && area->viewport() == p)
            return true;
    return false;
}

// A dock in a tab that is not the current one is parked out of sight by the main window: not shown.
bool inHiddenTab(const QWidget* w)
{
    for (const QWidget* p = w; p; p = p->parentWidget())
        if (qobject_cast<const QDockWidget*>(p) && p->visibleRegion().isEmpty())
            return true;
    return false;
}

int runChild(int argc, char** argv)
{
    QApplication app(argc, argv);
    QTemporaryDir dir;
    MainWindow window(LockScopeConfig(), dir.filePath(QStringLiteral("audit.log")));
    DemoSession session;
    DemoPanel* panel =
        DemoWindow::install(&window, &session, false, dir.filePath(QStringLiteral("audit.log")));
    window.show();
    QSignalSpy ready(&session, &DemoSession::ready);
    session.start();
    if (!ready.wait(int(lockscope::test::upperBoundMs(60000)))) {
        std::printf("FAIL the demo did not start\n");
        return 2;
    }
    if (!QTest::qWaitForWindowExposed(&window)) {
        std::printf("FAIL the window was not shown\n");
        return 2;
    }
    QCoreApplication::processEvents(); // the layouts take the filled-in status line and counters
    const QRect available = window.screen()->availableGeometry();
    const QSize hint = window.minimumSizeHint().expandedTo(window.minimumSize());
    const QSize room(available.width(), available.height() - decorationsHeight);
    std::printf("screen %dx%d, room %dx%d, window minimum %dx%d, panel minimum %dx%d\n", available.width(),
                available.height(), room.width(), room.height(), hint.width(), hint.height(),
                panel->minimumSizeHint().width(), panel->minimumSizeHint().height());
    int failures = 0;
    if (hint.width() > room.width() || hint.height() > room.height()) {
        std::printf("FAIL the window's minimum size %dx%d does not fit %dx%d\n", hint.width(), hint.height(),
                    room.width(), room.height());
        ++failures;
    }
    // Maximised on that screen, as a user would: nothing visible may stick out of the window.
    window.setGeometry(QRect(available.topLeft(), room));
    (void)QTest::qWaitFor([&] { return window.size() == room; },
                          2000); // one bigger than that is reported below
    QCoreApplication::processEvents();
    if (window.width() > room.width() || window.height() > room.height()) {
        std::printf("FAIL the window is %dx%d, more than %dx%d\n", window.width(), window.height(),
                    room.width(), room.height());
        ++failures;
    }
    const QRect inside = window.rect();
    for (QWidget* w : window.findChildren<QWidget*>()) {
        if (!w->isVisible() || w->isWindow() || scrolls(w, &window) || inHiddenTab(w))
            continue;
        const QRect r(w->mapTo(&window, QPoint(0, 0)), w->size());
        if (!inside.contains(r)) {
            std::printf("FAIL %s '%s' at %d,%d %dx%d is outside the window %dx%d\n",
                        w->metaObject()->className(), qPrintable(w->objectName()), r.x(), r.y(), r.width(),
                        r.height(), inside.width(), inside.height());
            ++failures;
        }
    }
    // Issue #41: at 1366x768, 1440x900 and 1920x1080 at 150 % the TTL and Masters columns were off
    // the table's right edge, and scrolling to them lost the Resource column. Every column fits.
    LockTableView* locks = window.lockView();
    if (locks->horizontalScrollBar()->maximum() > 0) {
        QStringList widths;
        for (int c = 0; c < locks->model()->columnCount(); ++c)
            widths << QString::number(locks->columnWidth(c));
        std::printf("FAIL the locks table scrolls sideways: columns %s in a %d px view\n",
                    qPrintable(widths.join(QLatin1Char('+'))), locks->viewport()->width());
        ++failures;
    }
    // The selected sample lock's quorum diagram is on screen without scrolling the detail pane (at
    // 1366x768 and 150 % it was scrolled out of view).
    (void)QTest::qWaitFor([&] { return !locks->currentResource().isEmpty(); }, 15000);
    QCoreApplication::processEvents();
    QWidget* diagram = nullptr;
    for (QWidget* w : window.findChildren<QWidget*>())
        if (QLatin1String(w->metaObject()->className()) == QLatin1String("lockscope::QuorumDiagram"))
            diagram = w;
    auto* detail = window.findChild<QAbstractScrollArea*>(QStringLiteral("detailScroll"));
    if (locks->currentResource().isEmpty() || !diagram || !detail) {
        std::printf("FAIL no lock selected, or no quorum diagram shown\n");
        ++failures;
    } else if (const QRect r(diagram->mapTo(detail->viewport(), QPoint(0, 0)), diagram->size());
               !detail->viewport()->rect().contains(r)) {
        std::printf("FAIL the quorum diagram at %d,%d %dx%d needs scrolling in a %dx%d pane\n", r.x(), r.y(),
                    r.width(), r.height(), detail->viewport()->width(), detail->viewport()->height());
        ++failures;
    }
    // The demo's controls stay usable: reachable in its scroll area, with the dock wide enough to read.
    QDockWidget* dock = DemoWindow::dock(&window);
    if (!dock || !dock->isVisible() || dock->width() < 300) {
        std::printf("FAIL the demo dock is not shown at a usable width\n");
        ++failures;
    }
    // The scenarios, their caption and result are on screen without scrolling.
    auto* scroll = dock ? dock->findChild<QAbstractScrollArea*>(QStringLiteral("demoScroll")) : nullptr;
    QList<QWidget*> story;
    for (DemoScenario s : allDemoScenarios())
        story << panel->scenarioButton(s);
    story << panel->restoreButton() << panel->dismissButton() << panel->captionLabel()
          << panel->resultLabel();
    for (QWidget* w : std::as_const(story)) {
        const QRect r(w->mapTo(scroll->viewport(), QPoint(0, 0)), w->size());
        if (!scroll->viewport()->rect().contains(r)) {
            std::printf("FAIL %s '%s' needs scrolling to (at %d,%d %dx%d in a %dx%d view)\n",
                        w->metaObject()->className(), qPrintable(w->objectName()), r.x(), r.y(), r.width(),
                        r.height(), scroll->viewport()->width(), scroll->viewport()->height());
            ++failures;
        }
    }
    std::fflush(stdout);
    return failures == 0 ? 0 : 1;
}

} // namespace

class TestUiDemoFits : public QObject
{
    Q_OBJECT

private slots:
    void fitsTheScreen_data();
    void fitsTheScreen();
};

void TestUiDemoFits::fitsTheScreen_data()
{
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<QString>("scale");
    QTest::newRow("1366x768 at 100 %") << QSize(1366, 768) << QStringLiteral("1");
    QTest::newRow("1440x900 at 100 %") << QSize(1440, 900) << QStringLiteral("1");
    QTest::newRow("1920x1080 at 150 %") << QSize(1920, 1080) << QStringLiteral("1.5");
}

void TestUiDemoFits::fitsTheScreen()
{
    QFETCH(QSize, screen);
    QFETCH(QString, scale);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    QFile json(config);
    QVERIFY(json.open(QIODevice::WriteOnly));
    json.write(QStringLiteral(R"({"screens": [{"name": "fit", "x": 0, "y": 0, "width": %1, "height": %2,
                                  "logicalDpi": 96, "logicalBaseDpi": 96}]})")
                   .arg(screen.width())
                   .arg(screen.height())
                   .toUtf8());
    json.close();
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LOCKSCOPE_FIT_CHILD"), QStringLiteral("1"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen:configfile=%1").arg(config));
    env.insert(QStringLiteral("QT_SCALE_FACTOR"), scale);
    env.insert(QStringLiteral("HOME"), dir.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_STATE_HOME"), dir.filePath(QStringLiteral("state")));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QCoreApplication::applicationFilePath(), test::selfArguments());
    QVERIFY(child.waitForStarted());
    QVERIFY(child.waitForFinished(int(lockscope::test::upperBoundMs(180000))));
    const QString out = QString::fromLocal8Bit(child.readAll());
    qInfo("%s", qPrintable(out.trimmed()));
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, qPrintable(out));
}

namespace {

int runTest(int argc, char** argv)
{
    if (qEnvironmentVariableIsSet("LOCKSCOPE_FIT_CHILD"))
        return runChild(argc, argv);
    QApplication app(argc, argv);
    TestUiDemoFits test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace

LOCKSCOPE_TEST_ENTRY(runTest)

} // namespace tst_uidemofits

#include "tst_uidemofits.moc"
