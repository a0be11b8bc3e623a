// SPDX-License-Identifier: Apache-2.0
#include "livedemo/demowindow.h"

#include "demo/demosession.h"
#include "livedemo/demoeventsummary.h"
#include "livedemo/demomenu.h"
#include "livedemo/demopanel.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "session/keyspaceeventrecord.h"
#include "window/mainwindow.h"

#include <QDockWidget>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>

namespace lockscope {

QDockWidget* DemoWindow::dock(MainWindow* window)
{
    return window->findChild<QDockWidget*>(QStringLiteral("demoDock"));
}

DemoPanel* DemoWindow::install(MainWindow* window, DemoSession* session, bool readOnly,
                               const QString& auditLogPath, bool selectDefault)
{
    // The window opens at once; it starts watching when the demo masters are up.
    auto* dock = new QDockWidget(QObject::tr("Redlock demo"), window);
    dock->setObjectName(QStringLiteral("demoDock"));
    auto* panel = new DemoPanel(session, dock);
    // The panel is taller than a laptop screen when its groups stack: it scrolls instead of pushing
    // the window's bottom (and the status bar) off the screen.
    auto* scroll = new QScrollArea(dock);
    scroll->setObjectName(QStringLiteral("demoScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(panel);
    dock->setWidget(scroll);
    QObject::connect(dock, &QDockWidget::dockLocationChanged, panel, [panel](Qt::DockWidgetArea area) {
        panel->setStacked(area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea);
    });
    // On a projector the demo sits beside the locks, so the masters, the locks table and the
    // quorum diagram keep the full height; the event log, the history, the incidents and the
    // insights become tabs behind it.
    window->setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    window->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    window->addDockWidget(Qt::RightDockWidgetArea, dock);
    for (const char* name : {"eventsDock", "historyDock", "incidentsDock", "insightsDock"})
        if (auto* other = window->findChild<QDockWidget*>(QLatin1String(name)))
            window->tabifyDockWidget(dock, other);
    dock->raise();
    new DemoMenu(window, panel); // the scenarios in a menu, with shortcuts
    // Not larger than the screen it opens on (the first start's default size is 1440x900).
    const QScreen* screen = window->screen();
    const QSize available = screen ? screen->availableGeometry().size() : QSize(1440, 900);
    window->resize(window->size().boundedTo(available));
    window->resizeDocks({dock}, {qMin(640, available.width() * 45 / 100)}, Qt::Horizontal);
    // A sample lock held on every master (its quorum diagram whole): the demo clients' own locks
    // come and go every second, and a selection that goes leaves nothing selected.
    if (selectDefault)
        window->selectWhenSeen(QByteArrayLiteral("lock:orders:checkout"));

    // The quorum diagram is what the demo is watched for: once a lock is selected (the sample above,
    // a scenario's), the pane under the table gets the height it asks for, up to two thirds (at 1366x768
    // the diagram was scrolled out of view during the double grant).
    QObject::connect(window->lockView(), &LockTableView::selectedResourceChanged, window, [window] {
        auto* split = window->findChild<QSplitter*>(QStringLiteral("centralSplit"));
        if (!split || split->count() != 2 || window->lockView()->currentResource().isEmpty())
            return;
        const QList<int> sizes = split->sizes();
        const int total = sizes.at(0) + sizes.at(1);
        const int wanted = qMin(split->widget(1)->sizeHint().height(), total * 2 / 3);
        if (sizes.at(1) < wanted)
            split->setSizes({total - wanted, wanted});
    });

    // The lock a scenario is about stays in the table, highlighted and on top, until its caption is
    // dismissed (or another scenario starts).
    QObject::connect(panel, &DemoPanel::pinnedResourceChanged, window, [window](const QByteArray& resource) {
        window->lockModel()->setPinned(resource);
        if (!resource.isEmpty())
            window->selectWhenSeen(resource);
    });

    auto* summary = new DemoEventSummary(window->eventLog(), window);
    window->setKeyspaceEventFilter([summary](const KeyspaceEventRecord& e) { return summary->take(e); });

    QObject::connect(session, &DemoSession::ready, window,
                     [window, readOnly, auditLogPath](LockScopeConfig c) {
                         c.readOnly = readOnly;
                         window->monitor(c, auditLogPath);
                     });
    // Told without a nested event loop: this runs inside the failing connection's callbacks, which
    // must finish before anything else of the window's runs.
    QObject::connect(session, &DemoSession::failed, window, [window](const RedisError& error) {
        auto* box = new QMessageBox(QMessageBox::Critical, QObject::tr("LockScope demo"),
                                    QObject::tr("The demo masters could not start: %1").arg(error.message),
                                    QMessageBox::Ok, window);
        box->setObjectName(QStringLiteral("demoStartFailed"));
        box->setTextFormat(Qt::PlainText); // a server's words may be in the message
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    return panel;
}

} // namespace lockscope
