#include "mainwindow.h"

#include "acquiredialog.h"
#include "actiongate.h"
#include "audit/auditlog.h"
#include "auditlogdialog.h"
#include "base/bytesdisplay.h"
#include "base/monotonicclock.h"
#include "batchqueue.h"
#include "commandlinehelpdialog.h"
#include "connectionsdialog.h"
#include "corethread.h"
#include "emptystate.h"
#include "eventlogmodel.h"
#include "export/lockcsv.h"
#include "forcereleasedialog.h"
#include "historytimeline.h"
#include "historytracker.h"
#include "lockdetailpane.h"
#include "lockfilterproxy.h"
#include "locktablemodel.h"
#include "locktableview.h"
#include "mastertabledelegate.h"
#include "mastertablemodel.h"
#include "panelsmenu.h"
#include "readonlyrows.h"
#include "scanscopetext.h"
#include "selectionkeeper.h"
#include "statushelpdialog.h"
#include "statusstyle.h"
#include "windowfit.h"
#include "windowtitle.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QSettings>
#include <QShowEvent>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace lockscope {

namespace {

void fixRows(QTableView* view)
{
    setUpReadOnlyRows(view);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
}

} // namespace

MainWindow::MainWindow(LockScopeConfig config, QString auditLogPath, QWidget* parent)
    : QMainWindow(parent), m_launch(config, {}), m_config(std::move(config)),
      m_auditPath(std::move(auditLogPath)), m_locks(new LockTableModel(this)),
      m_proxy(new LockFilterProxy(this)), m_masters(new MasterTableModel(this)),
      m_events(new EventLogModel(5000, this)), m_queue(new BatchQueue(m_locks, this)),
      m_history(new HistoryTracker(this))
{
    setWindowTitle(WindowTitle::text(QString(), 0, false));
    setWindowIcon(QIcon(QStringLiteral(":/icons/lockscope.svg")));
    m_proxy->setSourceModel(m_locks);
    buildActions();
    buildCentral();
    buildDocks();
    buildMenus();
    buildStatusBar();
    // The saved layout is restored when the window is first shown (showEvent): by then main() has
    // said whether this is the demo (setDemoLayout) and added the demo's dock.
    resize(1440, 900);

    connect(m_queue, &BatchQueue::applied, this, [this](const LockBatch& slice) {
        m_history->observe(slice);
        if (!m_pendingSelect.isEmpty() && m_locks->rowOf(m_pendingSelect) >= 0)
            selectWhenSeen(m_pendingSelect);
        const QByteArray selected = selectedResource();
        const bool touched =
            !selected.isEmpty() && (slice.removed.contains(selected) ||
                                    std::any_of(slice.changed.cbegin(), slice.changed.cend(),
                                                [&](const LockView& v) { return v.resource == selected; }) ||
                                    std::any_of(slice.added.cbegin(), slice.added.cend(),
                                                [&](const LockView& v) { return v.resource == selected; }));
        if (touched) {
            updateDetail();
            updateHistory();
        }
    });
    connect(m_locks, &LockTableModel::countsChanged, this, &MainWindow::updateStatusBar);
    monitor(m_config, m_auditPath);
}

MainWindow::~MainWindow() = default;

void MainWindow::selectWhenSeen(const QByteArray& resource)
{
    m_pendingSelect = resource;
    if (m_locks->rowOf(resource) >= 0) {
        m_table->selectResource(resource);
        m_pendingSelect.clear();
    }
}

void MainWindow::setLaunchConfig(const LaunchConfig& launch)
{
    m_launch = launch;
    if (m_launch.isReadOnlyForGood() && !m_config.readOnly)
        monitor(m_config, m_auditPath);
}

void MainWindow::setProfileName(const QString& name)
{
    m_profileName = name;
    updateTitle();
}

void MainWindow::updateTitle()
{
    setWindowTitle(WindowTitle::text(m_profileName, int(m_masterNames.size()), m_readOnly));
}

void MainWindow::monitor(const LockScopeConfig& requested, const QString& auditLogPath)
{
    const LockScopeConfig config = m_launch.tightened(requested);
    m_core.reset(); // stops the old core thread first
    m_config = config;
    m_auditPath = auditLogPath;
    m_initialScanFinished = false;
    m_progress.clear();
    m_leases.clear();
    // A new set of masters: the old rows mean nothing any more (nor does the selection: it is
    // cleared first, so that the pane does not report the lock as released or expired).
    if (m_table)
        m_table->selectionModel()->clearCurrentIndex();
    if (m_locks->rowCount() > 0) {
        LockBatch clear;
        for (int r = 0; r < m_locks->rowCount(); ++r)
            clear.removed << m_locks->viewAt(r).resource;
        m_locks->apply(clear);
    }
    m_core = std::make_unique<CoreThread>(config, auditLogPath);
    connectCore();
    m_core->start();
    updateActions();
}

void MainWindow::buildActions()
{
    auto make = [this](const QString& text, const QKeySequence& key, auto slot) {
        auto* a = new QAction(text, this);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    m_refresh = make(tr("&Refresh"), QKeySequence::Refresh, [this] { m_core->refresh(); });
    m_acquire = make(tr("&Acquire…"), QKeySequence(tr("Ctrl+N")), &MainWindow::acquire);
    m_extend = make(tr("&Extend"), QKeySequence(tr("Ctrl+E")), &MainWindow::extend);
    m_release = make(tr("Re&lease"), QKeySequence(tr("Ctrl+R")), &MainWindow::release);
    m_forceRelease = make(tr("&Force-release…"), QKeySequence(tr("Shift+Del")), &MainWindow::forceRelease);
    m_copyResource = make(tr("Copy &resource"), QKeySequence::Copy, &MainWindow::copyResource);
    m_copyToken = make(tr("Copy &token"), QKeySequence(tr("Ctrl+Shift+C")), &MainWindow::copyToken);
    m_exportCsv = make(tr("Export view as &CSV…"), QKeySequence(), &MainWindow::exportCsv);
    m_exportJson = make(tr("Export view as &JSON…"), QKeySequence(), &MainWindow::exportJson);
    m_auditLog = make(tr("&Audit log…"), QKeySequence(tr("Ctrl+L")), &MainWindow::showAuditLog);
    m_connections = make(tr("&Connections…"), QKeySequence(tr("Ctrl+K")), &MainWindow::showConnections);
    m_about = make(tr("&About LockScope"), QKeySequence(), &MainWindow::showAbout);
    m_quit = make(tr("&Quit"), QKeySequence::Quit, &QWidget::close);
    m_enableEvents = make(tr("Enable &keyspace events…"), QKeySequence(),
                          [this] { enableKeyspaceEvents(pollingMasters(true)); });
    m_enableEvents->setObjectName(QStringLiteral("enableKeyspaceEvents"));
    m_statusHelp = make(tr("What each &status means"), QKeySequence::HelpContents, [this] {
        auto* dialog = new StatusHelpDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    m_cliHelp = make(tr("&Command-line reference (lockctl, lockscope)"), QKeySequence(), [this] {
        auto* dialog = new CommandLineHelpDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    m_focusFilter = make(tr("&Filter"), QKeySequence::Find, [this] {
        m_filter->setFocus();
        m_filter->selectAll();
    });
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_connections);
    file->addSeparator();
    file->addAction(m_exportCsv);
    file->addAction(m_exportJson);
    file->addSeparator();
    file->addAction(m_quit);
    QMenu* lock = menuBar()->addMenu(tr("&Lock"));
    lock->addAction(m_acquire);
    lock->addAction(m_extend);
    lock->addAction(m_release);
    lock->addSeparator();
    lock->addAction(m_forceRelease);
    lock->addSeparator();
    lock->addAction(m_copyResource);
    lock->addAction(m_copyToken);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_refresh);
    view->addAction(m_enableEvents);
    view->addSeparator();
    // Every dock and toolbar (PanelsMenu lists them here when the menu opens), then Reset layout.
    QAction* panelsEnd = view->addSeparator();
    m_resetLayout = view->addAction(tr("Reset &layout"), this, &MainWindow::resetLayout);
    m_resetLayout->setObjectName(QStringLiteral("resetLayout"));
    m_resetLayout->setToolTip(tr("Put every dock and toolbar back where it was at the first start"));
    view->addSeparator();
    view->addAction(m_auditLog);
    // The quick filters, with shortcuts, checked as their buttons are.
    QMenu* filter = menuBar()->addMenu(tr("Fi&lter"));
    m_focusFilter->setText(tr("&Filter by text…"));
    filter->addAction(m_focusFilter);
    filter->addSeparator();
    int key = 1;
    for (QToolButton* button : std::as_const(m_quickButtons)) {
        QAction* a = filter->addAction(button->text());
        a->setCheckable(true);
        a->setToolTip(button->toolTip());
        a->setShortcut(QKeySequence(tr("Ctrl+%1").arg(key++)));
        a->setProperty("quickFilter", button->property("quickFilter"));
        connect(a, &QAction::toggled, button, &QToolButton::setChecked);
        connect(button, &QToolButton::toggled, a, &QAction::setChecked);
    }
    filter->addSeparator();
    filter->addAction(tr("&Show all"), QKeySequence(tr("Ctrl+0")), this, [this] {
        m_filter->clear();
        for (QToolButton* b : std::as_const(m_quickButtons))
            b->setChecked(false);
    });
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_statusHelp);
    help->addAction(m_cliHelp);
    help->addSeparator();
    help->addAction(m_about);
    // A greyed entry says why in its tooltip (ActionGate): menus show tooltips too.
    for (QMenu* menu : {file, lock, view, filter, help})
        menu->setToolTipsVisible(true);

    QToolBar* bar = addToolBar(tr("Actions"));
    bar->setObjectName(QStringLiteral("actions"));
    bar->addAction(m_refresh);
    bar->addSeparator();
    bar->addAction(m_acquire);
    bar->addAction(m_extend);
    bar->addAction(m_release);
    bar->addAction(m_forceRelease);
    bar->addSeparator();
    bar->addAction(m_enableEvents); // the README's button: a write, confirmed and gated like the others
    bar->addAction(m_auditLog);
    bar->addAction(m_connections);
    new PanelsMenu(this, view, panelsEnd);
}

void MainWindow::buildCentral()
{
    m_table = new LockTableView(this);
    m_table->setObjectName(QStringLiteral("locks"));
    m_table->setProxy(m_proxy);
    // Kept by resource, not by row: a lock that goes away leaves nothing selected (SelectionKeeper).
    connect(m_table, &LockTableView::selectedResourceChanged, this, &MainWindow::onSelectionChanged);
    connect(m_table, &QWidget::customContextMenuRequested, this, &MainWindow::showContextMenu);
    connect(m_table, &QAbstractItemView::doubleClicked, this, [this] { m_detail->setFocus(); });

    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter: text, or a glob such as lock:orders:* (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &LockFilterProxy::setFilterText);

    auto* filters = new QHBoxLayout;
    filters->setContentsMargins(0, 0, 0, 0);
    filters->addWidget(m_filter, 1);
    const QList<QPair<LockFilterProxy::QuickFilter, QString>> quick{
        {LockFilterProxy::StuckFilter, tr("Stuck")},
        {LockFilterProxy::ContestedFilter, tr("Contested")},
        {LockFilterProxy::PartialFilter, tr("Partial")},
        // The threshold is the filter's own.
        {LockFilterProxy::ExpiringSoonFilter,
         tr("Expiring soon (< %1 s)").arg(double(m_proxy->expiringSoonMs()) / 1000.0)},
    };
    for (const auto& [flag, text] : quick) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setCheckable(true);
        b->setProperty("quickFilter", int(flag));
        b->setToolTip(
            flag == LockFilterProxy::ExpiringSoonFilter
                ? tr("Locks with less than %1 s of validity left").arg(m_proxy->expiringSoonMs() / 1000)
                : tr("Show only %1 locks (with the others chosen here)").arg(text.toLower()));
        if (flag == LockFilterProxy::StuckFilter)
            b->setIcon(StatusStyle::statusIcon(LockStatus::Stuck, palette()));
        else if (flag == LockFilterProxy::ContestedFilter)
            b->setIcon(StatusStyle::statusIcon(LockStatus::Contested, palette()));
        else if (flag == LockFilterProxy::PartialFilter)
            b->setIcon(StatusStyle::statusIcon(LockStatus::Partial, palette()));
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        connect(b, &QToolButton::toggled, this, [this] {
            LockFilterProxy::QuickFilters f;
            for (QToolButton* q : std::as_const(m_quickButtons))
                if (q->isChecked())
                    f |= LockFilterProxy::QuickFilter(q->property("quickFilter").toInt());
            m_proxy->setQuickFilters(f);
        });
        m_quickButtons << b;
        filters->addWidget(b);
    }

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(4, 4, 4, 0);
    topLayout->addLayout(filters);
    topLayout->addWidget(m_table, 1);
    m_emptyState = new EmptyState(top);
    m_emptyState->hide();
    connect(m_emptyState, &EmptyState::connectRequested, m_connections, &QAction::trigger);
    connect(m_emptyState, &EmptyState::demoRequested, this, &MainWindow::demoRequested);
    topLayout->addWidget(m_emptyState, 1);

    m_detail = new LockDetailPane(this);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("centralSplit"));
    split->addWidget(top);
    split->addWidget(m_detail);
    // The table gets most of the height (the pane scrolls), and neither can be dragged away: a
    // collapsed table hides every lock, a collapsed pane hides what a force-release would act on.
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setCollapsible(0, false);
    split->setCollapsible(1, false);
    split->setSizes({700, 300});
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              3 * m_table->verticalHeader()->defaultSectionSize() +
                              2 * m_table->frameWidth());
    setCentralWidget(split);
}

void MainWindow::buildDocks()
{
    setDockNestingEnabled(true);
    // A tree: a cluster's or a Sentinel group's nodes hang under its row, and top-level row i
    // stays master i.
    m_masterView = new QTreeView(this);
    m_masterView->setObjectName(QStringLiteral("masters"));
    m_masterView->setModel(m_masters);
    m_masterView->setItemDelegate(new MasterTableDelegate(m_masterView));
    m_masterView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_masterView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_masterView->setUniformRowHeights(true); // fixed heights: a refresh never measures rows
    m_masterView->setAllColumnsShowFocus(true);
    m_masterView->setWordWrap(false);
    m_masterView->header()->setStretchLastSection(true);
    m_masterView->setColumnWidth(MasterTableModel::MasterColumn, 260);
    m_masterView->setColumnWidth(MasterTableModel::LatencyColumn, 170);
    m_masterView->setColumnWidth(MasterTableModel::RoleColumn, 190); // a node's "replica of host:port"
    // Nodes show expanded when they appear; an entry someone collapsed stays collapsed.
    connect(m_masters, &QAbstractItemModel::rowsInserted, m_masterView,
            [this](const QModelIndex& parent, int first, int last) {
                for (int row = first; row <= last; ++row)
                    m_masterView->expandRecursively(m_masters->index(row, 0, parent));
            });
    m_masterView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_masterView, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_masterView->indexAt(pos);
        const int master = MasterTableModel::masterOf(index);
        if (master < 0 || master >= m_masters->rowCount())
            return;
        const MasterSnapshot& s = m_masters->snapshot(master);
        QMenu menu(this);
        if (const QVariant node = index.data(MasterTableModel::NodeRole); node.isValid()) {
            const QString address = node.value<MasterNode>().address.toString();
            menu.addAction(tr("Copy address %1").arg(address), this,
                           [address] { QGuiApplication::clipboard()->setText(address); });
        }
        menu.addAction(tr("Copy URL"), this, [s] { QGuiApplication::clipboard()->setText(s.name); });
        QAction* enable = menu.addAction(tr("Enable keyspace events on this master…"), this,
                                         [this, s] { enableKeyspaceEvents({s.index}); });
        enable->setEnabled(!m_readOnly && s.mode == NotificationMode::Polling &&
                           s.state == RedisConnection::State::Up);
        menu.exec(m_masterView->viewport()->mapToGlobal(pos));
    });
    auto* masters = new QDockWidget(tr("Masters"), this);
    masters->setObjectName(QStringLiteral("mastersDock"));
    masters->setWidget(m_masterView);
    addDockWidget(Qt::TopDockWidgetArea, masters);

    m_eventView = new QTableView(this);
    m_eventView->setObjectName(QStringLiteral("events"));
    m_eventView->setModel(m_events);
    fixRows(m_eventView);
    m_eventView->setColumnWidth(EventLogModel::TimeColumn, 100);
    m_eventView->setColumnWidth(EventLogModel::KindColumn, 80);
    m_eventView->setColumnWidth(EventLogModel::SourceColumn, 200);
    connect(m_events, &QAbstractItemModel::rowsInserted, this, [this] {
        // Follow the newest entry only when already at the bottom: reading older ones is not interrupted.
        QScrollBar* bar = m_eventView->verticalScrollBar();
        if (bar->value() >= bar->maximum() - m_eventView->verticalHeader()->defaultSectionSize() * 2)
            QMetaObject::invokeMethod(m_eventView, &QAbstractItemView::scrollToBottom, Qt::QueuedConnection);
    });
    auto* events = new QDockWidget(tr("Event log"), this);
    events->setObjectName(QStringLiteral("eventsDock"));
    events->setWidget(m_eventView);
    addDockWidget(Qt::BottomDockWidgetArea, events);

    m_timeline = new HistoryTimeline(this);
    auto* historyBox = new QWidget(this);
    auto* historyLayout = new QVBoxLayout(historyBox);
    historyLayout->setContentsMargins(2, 2, 2, 2);
    historyLayout->addWidget(m_timeline, 1);
    auto* exportRow = new QHBoxLayout;
    auto* csv = new QPushButton(tr("Export CSV…"), historyBox);
    auto* json = new QPushButton(tr("Export JSON…"), historyBox);
    connect(csv, &QPushButton::clicked, this, [this] { exportHistory(false); });
    connect(json, &QPushButton::clicked, this, [this] { exportHistory(true); });
    exportRow->addStretch(1);
    exportRow->addWidget(csv);
    exportRow->addWidget(json);
    historyLayout->addLayout(exportRow);
    auto* history = new QDockWidget(tr("History"), this);
    history->setObjectName(QStringLiteral("historyDock"));
    history->setWidget(historyBox);
    addDockWidget(Qt::BottomDockWidgetArea, history);
    tabifyDockWidget(events, history);
    events->raise();
    connect(m_history, &HistoryTracker::changed, this, [this](const QByteArray& resource) {
        if (resource == selectedResource())
            updateHistory();
    });
}

void MainWindow::buildStatusBar()
{
    m_readOnlyBadge = new QLabel(tr(" READ-ONLY "), this);
    m_readOnlyBadge->setToolTip(
        tr("Every write is refused: acquire, extend, release and force-release are disabled."));
    QFont f = m_readOnlyBadge->font();
    f.setBold(true);
    m_readOnlyBadge->setFont(f);
    m_readOnlyBadge->setAutoFillBackground(true);
    m_readOnlyBadge->hide();
    m_totals = new QLabel(this);
    m_mastersUp = new QLabel(this);
    m_scanScope = new QLabel(this);
    m_scanScope->setObjectName(QStringLiteral("scanScope"));
    // Long pattern lists must not widen the window: the label takes the room there is, the
    // tooltip has all of it.
    m_scanScope->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_progressBar = new QProgressBar(this);
    m_progressBar->setMaximumWidth(220);
    m_progressBar->setFormat(tr("scanning %p%"));
    m_progressBar->hide();
    statusBar()->addWidget(m_readOnlyBadge);
    statusBar()->addWidget(m_totals, 1);
    statusBar()->addWidget(m_scanScope, 1);
    statusBar()->addPermanentWidget(m_progressBar);
    statusBar()->addPermanentWidget(m_mastersUp);
    updateStatusBar();
}

void MainWindow::connectCore()
{
    CoreService* s = m_core->service();
    connect(s, &CoreService::started, this, &MainWindow::onStarted);
    connect(s, &CoreService::masterChanged, this, &MainWindow::onMaster);
    connect(s, &CoreService::locksChanged, m_queue, &BatchQueue::enqueue);
    connect(s, &CoreService::scanProgress, this, &MainWindow::onScanProgress);
    connect(s, &CoreService::initialScanFinished, this, [this] {
        m_initialScanFinished = true;
        m_progressBar->hide();
        emit initialScanFinished();
        // Counted once the table has caught up with the batches still queued.
        auto announce = [this] {
            m_events->add(EventLogModel::Kind::Master, tr("monitor"),
                          tr("initial scan finished: %n lock(s)", nullptr, m_locks->rowCount()));
        };
        if (m_queue->isIdle())
            announce();
        else
            connect(m_queue, &BatchQueue::drained, this, announce, Qt::SingleShotConnection);
    });
    connect(s, &CoreService::keyspaceEvents, this, &MainWindow::onKeyspaceEvents);
    connect(s, &CoreService::redlockFinished, this, &MainWindow::onRedlock);
    connect(s, &CoreService::forceReleaseFinished, this, &MainWindow::onForceReleased);
    connect(s, &CoreService::leasesChanged, this, [this](const QList<RedlockLease>& leases) {
        m_leases.clear();
        for (const RedlockLease& l : leases)
            m_leases.insert(l.resource, l);
        updateActions();
    });
    connect(s, &CoreService::leaseLost, this, [this](const QByteArray& resource, const QString& reason) {
        m_events->add(EventLogModel::Kind::Error, escapeBytes(resource), tr("lock lost: %1").arg(reason));
    });
    connect(s, &CoreService::jsonExported, this, [this](quint64 request, const QByteArray& json) {
        const QString path = m_pendingExports.take(request);
        if (path.isEmpty())
            return;
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit())
            QMessageBox::warning(this, tr("Export"),
                                 tr("Could not write %1: %2").arg(path, file.errorString()));
        else
            statusBar()->showMessage(tr("Exported to %1").arg(path), 5000);
    });
    // Sentinel failovers (#8): the at-risk mark comes with the locks; the log says what happened.
    connect(s, &CoreService::failoverDetected, this,
            [this](int master, const PrimaryChange& change, int atRisk) {
                m_events->add(
                    EventLogModel::Kind::Master, m_masterNames.value(master),
                    tr("failover %1 → %2: %n lock(s) at risk until the new primary is read", nullptr, atRisk)
                        .arg(change.oldPrimary.toString(), change.newPrimary.toString()));
            });
    connect(s, &CoreService::failoverReported, this, [this](const FailoverReport& report) {
        QStringList changed;
        for (const FailoverReport::TokenChange& c : report.changedToken)
            changed << tr("%1 (token %2, now %3)")
                           .arg(escapeBytes(c.resource), escapeBytes(c.before), escapeBytes(c.after));
        QStringList lost;
        for (const QByteArray& r : report.lost)
            lost << escapeBytes(r);
        const QString none = tr("none");
        m_events->add(report.hasHazard() ? EventLogModel::Kind::Error : EventLogModel::Kind::Master,
                      m_masterNames.value(report.master),
                      tr("failover %1 → %2 read through: lost on the new primary: %3; held there under "
                         "another token: %4")
                          .arg(report.change.oldPrimary.toString(), report.change.newPrimary.toString(),
                               lost.isEmpty() ? none : lost.join(QStringLiteral(", ")),
                               changed.isEmpty() ? none : changed.join(QStringLiteral(", "))));
    });
    connect(s, &CoreService::auditLost, this, &MainWindow::showAuditLost);
    connect(s, &CoreService::auditLost, this, &MainWindow::checkAudit);
    connect(s, &CoreService::problem, this, [this](const QString& message) {
        m_events->add(EventLogModel::Kind::Error, tr("core"), message);
        statusBar()->showMessage(message, 10000);
    });
}

void MainWindow::onStarted(const QStringList& masters, bool readOnly, const QString& auditPath)
{
    m_masterNames = masters;
    m_readOnly = readOnly;
    m_auditPath = auditPath;
    m_locks->setMasterNames(masters);
    m_detail->setMasterNames(masters);
    m_masters->setMasters(masters);
    m_lastMasterState = QList<int>(masters.size(), -1);
    m_readOnlyBadge->setVisible(readOnly);
    QPalette badge = m_readOnlyBadge->palette();
    badge.setColor(QPalette::Window, StatusStyle::warningColor(palette()));
    badge.setColor(QPalette::WindowText, palette().color(QPalette::Base));
    m_readOnlyBadge->setPalette(badge);
    m_progressBar->setValue(0);
    m_progressBar->setVisible(!masters.isEmpty()); // nothing to scan: no "scanning 0%" for ever
    updateTitle();
    checkAudit();
    updateStatusBar();
}

void MainWindow::onMaster(const MasterSnapshot& snapshot)
{
    const int previous = m_lastMasterState.value(snapshot.index, -1);
    const MasterSnapshot before =
        snapshot.index < m_masters->rowCount() ? m_masters->snapshot(snapshot.index) : MasterSnapshot();
    m_masters->update(snapshot);
    // Retries flip a dead master between "reconnecting" and "down" every few seconds: only the
    // changes a person acts on (up, down, closed) are logged.
    const bool worthLogging = snapshot.state == RedisConnection::State::Up ||
                              snapshot.state == RedisConnection::State::Down ||
                              snapshot.state == RedisConnection::State::Disconnected;
    if (previous != int(snapshot.state) && worthLogging) {
        if (snapshot.index < m_lastMasterState.size())
            m_lastMasterState[snapshot.index] = int(snapshot.state);
        const bool bad = snapshot.state == RedisConnection::State::Down;
        m_events->add(bad ? EventLogModel::Kind::Error : EventLogModel::Kind::Master, snapshot.name,
                      snapshot.error.isEmpty()
                          ? StatusStyle::masterStateText(snapshot.state)
                          : tr("%1: %2").arg(StatusStyle::masterStateText(snapshot.state), snapshot.error));
    }
    if (snapshot.restartedAt.isValid() && snapshot.restartedAt != before.restartedAt)
        m_events->add(EventLogModel::Kind::Error, snapshot.name,
                      tr("restarted (run_id changed): locks it held may be lost"));
    if (snapshot.mode != before.mode && snapshot.mode != NotificationMode::Unknown)
        m_events->add(
            EventLogModel::Kind::Master, snapshot.name,
            snapshot.modeReason.isEmpty()
                ? tr("notifications: %1").arg(notificationModeName(snapshot.mode))
                : tr("notifications: %1 (%2)").arg(notificationModeName(snapshot.mode), snapshot.modeReason));
    updateStatusBar();
    if (snapshot.state != before.state || snapshot.mode != before.mode)
        updateActions(); // the quorum may have come or gone, keyspace events been turned on
}

void MainWindow::onKeyspaceEvents(const QList<KeyspaceEventRecord>& events, int dropped)
{
    QList<EventLogModel::Entry> entries;
    entries.reserve(events.size() + 1);
    for (const KeyspaceEventRecord& e : events)
        if (!m_keyspaceTaken || !m_keyspaceTaken(e))
            entries << EventLogModel::Entry{e.time, EventLogModel::Kind::Keyspace,
                                            m_masterNames.value(e.master),
                                            tr("%1 %2").arg(escapeBytes(e.event), escapeBytes(e.key))};
    if (dropped > 0)
        entries << EventLogModel::Entry{QDateTime::currentDateTime(), EventLogModel::Kind::Keyspace,
                                        tr("monitor"),
                                        tr("%n more keyspace event(s) not listed", nullptr, dropped)};
    m_events->addAll(entries);
}

void MainWindow::onRedlock(const RedlockReport& report)
{
    const RedlockOutcome& o = report.outcome;
    QString text = tr("%1: %2 (%3 of %4 masters, %5 needed)")
                       .arg(report.action, writeVerdictName(o.verdict))
                       .arg(o.succeeded)
                       .arg(o.total)
                       .arg(o.needed);
    if (!o.error.message.isEmpty())
        text += QStringLiteral(" — ") + o.error.message;
    if (o.auditError.isError())
        text += QStringLiteral(" — ") + tr("audit log: %1").arg(o.auditError.message);
    m_events->add(o.ok() ? EventLogModel::Kind::Action : EventLogModel::Kind::Error,
                  escapeBytes(report.resource), text);
    if (o.ok() && report.action == QLatin1String("acquire"))
        selectWhenSeen(report.resource); // the lock just taken here is the one to look at
    statusBar()->showMessage(escapeBytes(report.resource) + QStringLiteral(": ") + text, 8000);
    m_core->refresh(); // show the result now rather than at the next poll
}

void MainWindow::onForceReleased(const ForceReleaseReport& report)
{
    if (report.outcome.ok())
        m_history->markForceReleased(report.plan.request.resource);
    QStringList perMaster;
    for (const ForceReleaseMasterResult& r : report.outcome.results)
        perMaster << QStringLiteral("%1: %2").arg(r.master, forceReleaseActionName(r.action));
    m_events->add(
        report.outcome.ok() ? EventLogModel::Kind::Action : EventLogModel::Kind::Error,
        escapeBytes(report.plan.request.resource),
        tr("force-release: %1 (%2)")
            .arg(writeVerdictName(report.outcome.verdict), perMaster.join(QStringLiteral("; "))));
    m_core->refresh();
}

void MainWindow::onScanProgress(int master, qint64 scanned, qint64 total)
{
    if (m_initialScanFinished)
        return;
    m_progress.insert(master, {scanned, total});
    qint64 done = 0;
    qint64 all = 0;
    for (const auto& [s, t] : std::as_const(m_progress)) {
        done += qMin(s, t);
        all += t;
    }
    m_progressBar->setVisible(true);
    m_progressBar->setValue(all > 0 ? int(done * 100 / all) : 0);
}

void MainWindow::onSelectionChanged()
{
    updateDetail();
    updateHistory();
    updateActions();
}

QByteArray MainWindow::selectedResource() const
{
    return m_table ? m_table->currentResource() : QByteArray();
}

void MainWindow::updateDetail()
{
    const LockView* view = m_locks->find(selectedResource());
    if (!view && m_table->selection()->state() == SelectionKeeper::State::Gone)
        m_detail->setGone(m_table->selection()->goneResource());
    else
        m_detail->setView(view ? std::optional<LockView>(*view) : std::nullopt);
    updateActions();
}

void MainWindow::updateHistory()
{
    const QByteArray resource = selectedResource();
    m_timeline->setEpisodes(resource, m_history->episodes(resource), m_history->openedAt());
}

void MainWindow::updateActions()
{
    const QByteArray resource = selectedResource();
    ActionGate::State state;
    state.masters = int(m_config.masters.size());
    state.mastersUp = m_masters->upCount();
    state.readOnly = m_readOnly;
    state.auditProblem = m_auditProblem;
    state.auditPath = m_auditPath;
    state.selected = !resource.isEmpty() && m_locks->find(resource);
    state.ours = m_leases.contains(resource);
    const ActionGate gate(state);
    auto apply = [&gate](QAction* action, ActionGate::Action which, const QString& whatItDoes) {
        action->setEnabled(gate.allows(which));
        const QString tip = gate.toolTip(which, whatItDoes);
        action->setToolTip(tip);
        action->setStatusTip(QString(tip).replace(QLatin1Char('\n'), QStringLiteral(" — ")));
    };
    apply(m_acquire, ActionGate::Action::Acquire, tr("Acquire a Redlock on the masters"));
    apply(m_extend, ActionGate::Action::Extend, tr("Extend a lock this window acquired"));
    apply(m_release, ActionGate::Action::Release, tr("Release a lock this window acquired"));
    apply(m_forceRelease, ActionGate::Action::ForceRelease,
          tr("Delete this lock as an administrator, only where it still has the token shown"));
    apply(m_copyResource, ActionGate::Action::Copy, tr("Copy the selected lock's resource name"));
    apply(m_copyToken, ActionGate::Action::Copy, tr("Copy the selected lock's token"));
    apply(m_enableEvents, ActionGate::Action::EnableNotifications,
          tr("Run CONFIG SET notify-keyspace-events on the masters that are polling, after asking: live "
             "updates instead of a full pass every %1 s")
              .arg(double(m_config.monitor.pollIntervalMs) / 1000.0));
    if (m_enableEvents->isEnabled() && pollingMasters(false).isEmpty()) {
        m_enableEvents->setEnabled(false);
        const QString why = tr("Every master that answers sends keyspace events already.");
        m_enableEvents->setToolTip(m_enableEvents->toolTip() + tr("\nUnavailable: %1").arg(why));
        m_enableEvents->setStatusTip(m_enableEvents->statusTip() + QStringLiteral(" — ") + why);
    }
    // Nothing to watch: say what to do instead of showing an empty table.
    const bool empty = state.masters == 0;
    m_emptyState->setVisible(empty);
    m_table->setVisible(!empty);
}

void MainWindow::checkAudit()
{
    if (m_auditPath.isEmpty())
        return;
    // A local file, opened for appending as the core does before every write: no socket involved.
    const RedisError error = AuditLog(m_auditPath, m_config.allowSharedAuditLog).check();
    m_auditProblem = error.isError() ? error.message : QString();
    updateActions();
    // Someone may free space or fix the permissions: look again until it can be written.
    if (!m_auditProblem.isEmpty()) {
        if (!m_auditRecheck) {
            m_auditRecheck = new QTimer(this);
            m_auditRecheck->setSingleShot(true);
            m_auditRecheck->setInterval(5000);
            connect(m_auditRecheck, &QTimer::timeout, this, &MainWindow::checkAudit);
        }
        m_auditRecheck->start(); // one pending look at a time, however often asked
    }
}

QList<int> MainWindow::pollingMasters(bool preferSelected) const
{
    QList<int> out;
    for (int i = 0; i < m_masters->rowCount(); ++i) {
        const MasterSnapshot& s = m_masters->snapshot(i);
        if (s.mode == NotificationMode::Polling && s.state == RedisConnection::State::Up)
            out << i;
    }
    // A master picked in the masters panel narrows it to that one.
    if (preferSelected && m_masterView) {
        const int picked = MasterTableModel::masterOf(m_masterView->currentIndex());
        if (out.contains(picked))
            return {picked};
    }
    return out;
}

void MainWindow::enableKeyspaceEvents(const QList<int>& masters)
{
    if (masters.isEmpty() || m_readOnly || !m_core)
        return;
    QStringList names;
    for (int i : masters)
        names << m_masters->snapshot(i).name;
    // A write like any other: asked for here, then gated (read-only, audit log) and recorded by the core.
    if (QMessageBox::question(this, tr("Enable keyspace events"),
                              tr("Run CONFIG SET notify-keyspace-events on %1? This changes the server's "
                                 "configuration for every client.")
                                  .arg(names.join(QStringLiteral(", ")))) != QMessageBox::Yes ||
        !m_core)
        return;
    for (int i : masters)
        m_core->enableNotifications(i);
}

QWidget* MainWindow::emptyState() const
{
    return m_emptyState;
}

void MainWindow::updateStatusBar()
{
    const LockTableModel::StatusCounts& c = m_locks->counts();
    QStringList parts;
    parts << tr("%n lock(s)", nullptr, m_locks->rowCount());
    for (LockStatus s : {LockStatus::Held, LockStatus::Partial, LockStatus::Contested, LockStatus::Stuck,
                         LockStatus::Unknown})
        parts << QStringLiteral("%1 %2").arg(c[size_t(s)]).arg(StatusStyle::statusText(s));
    if (m_proxy->rowCount() != m_locks->rowCount())
        parts << tr("%n shown", nullptr, m_proxy->rowCount());
    m_totals->setText(parts.join(QStringLiteral(" · ")));
    m_mastersUp->setText(tr("%1 of %2 masters up").arg(m_masters->upCount()).arg(m_masters->rowCount()));
    QList<MasterSnapshot> masters;
    for (int i = 0; i < m_masters->rowCount(); ++i)
        masters << m_masters->snapshot(i);
    m_scanScope->setText(ScanScopeText::text(m_config.monitor.patterns, masters));
    m_scanScope->setToolTip(m_scanScope->text());
}

void MainWindow::acquire()
{
    if (m_readOnly || !m_core)
        return;
    AcquireDialog dialog(this);
    // exec() runs the event loop: the core may be replaced meanwhile (reconnect, another profile).
    const QPointer<CoreThread> core = m_core.get();
    connect(core, &QObject::destroyed, &dialog, &AcquireDialog::connectionChanged);
    if (dialog.exec() != QDialog::Accepted || !core)
        return;
    m_core->acquire(dialog.resource(), dialog.ttlMs(), dialog.retries(), dialog.keepAlive());
    m_events->add(EventLogModel::Kind::Action, escapeBytes(dialog.resource()),
                  tr("acquire requested (TTL %1 ms, %2 retries)").arg(dialog.ttlMs()).arg(dialog.retries()));
}

void MainWindow::extend()
{
    const QByteArray resource = selectedResource();
    const auto it = m_leases.constFind(resource);
    if (m_readOnly || it == m_leases.constEnd())
        return;
    m_core->extend(resource, it->ttlMs);
}

void MainWindow::release()
{
    const QByteArray resource = selectedResource();
    if (m_readOnly || !m_leases.contains(resource))
        return;
    m_core->release(resource);
}

void MainWindow::forceRelease()
{
    const LockView* view = m_locks->find(selectedResource());
    if (!view || !m_core)
        return;
    auto* dialog = new ForceReleaseDialog(m_core.get(), *view, m_masterNames, m_readOnly, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::copyResource()
{
    const QByteArray resource = selectedResource();
    if (!resource.isEmpty())
        QGuiApplication::clipboard()->setText(escapeBytes(resource));
}

void MainWindow::copyToken()
{
    if (const LockView* view = m_locks->find(selectedResource()))
        QGuiApplication::clipboard()->setText(escapeBytes(view->token));
}

void MainWindow::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export view as CSV"),
                                                      QStringLiteral("locks.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    const qint64 now = monotonicMs();
    QString out = LockCsv::header() + QLatin1Char('\n');
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        out += LockCsv::row(m_locks->viewAt(m_proxy->mapToSource(m_proxy->index(r, 0)).row()), now) +
               QLatin1Char('\n');
    QSaveFile file(path);
    const QByteArray bytes = out.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        QMessageBox::warning(this, tr("Export"), tr("Could not write %1: %2").arg(path, file.errorString()));
    else
        statusBar()->showMessage(tr("Exported %n lock(s) to %1", nullptr, m_proxy->rowCount()).arg(path),
                                 5000);
}

void MainWindow::exportJson()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export view as JSON"), QStringLiteral("locks.json"), tr("JSON files (*.json)"));
    if (path.isEmpty())
        return;
    QByteArrayList resources;
    resources.reserve(m_proxy->rowCount());
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        resources << m_proxy->index(r, 0).data(LockTableModel::ResourceRole).toByteArray();
    if (resources.isEmpty() && m_locks->rowCount() > 0)
        resources << QByteArray(); // a filter that shows nothing exports nothing, not everything
    m_pendingExports.insert(m_core->exportJson(resources), path);
}

void MainWindow::exportHistory(bool json)
{
    const QByteArray resource = selectedResource();
    if (resource.isEmpty())
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export history"), json ? QStringLiteral("history.json") : QStringLiteral("history.csv"),
        json ? tr("JSON files (*.json)") : tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    const QByteArray bytes = json ? m_history->toJson(resource) : m_history->toCsv(resource);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        QMessageBox::warning(this, tr("Export"), tr("Could not write %1: %2").arg(path, file.errorString()));
}

void MainWindow::showAuditLog()
{
    auto* dialog = new AuditLogDialog(m_auditPath, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::showConnections()
{
    ConnectionsDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted || !dialog.chosenConfig())
        return;
    // The profile brings its masters; the launch options stay, and read-only only tightens.
    const LockScopeConfig combined =
        m_launch.combine(*dialog.chosenConfig(), dialog.chosenLockedReadOnly(), dialog.chosenPatterns());
    m_profileName = dialog.chosenProfileName();
    monitor(combined, m_auditPath);
}

void MainWindow::showAuditLost(const QString& message)
{
    m_events->add(EventLogModel::Kind::Error, tr("audit log"), tr("NOT RECORDED: %1").arg(message));
    // Not modal: the core keeps running and further losses add to the same dialog's log line.
    auto* box = findChild<QMessageBox*>(QStringLiteral("auditLostDialog"));
    if (!box) {
        box = new QMessageBox(QMessageBox::Critical, tr("Write not recorded in the audit log"), QString(),
                              QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("auditLostDialog"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setText(tr("A write went through on the masters, but its audit line could not be written. "
                        "Free space or fix the audit log (%1) before making further changes.")
                         .arg(m_auditPath));
    }
    box->setDetailedText(box->detailedText().isEmpty() ? message
                                                       : box->detailedText() + QLatin1Char('\n') + message);
    box->setInformativeText(message);
    box->open();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About LockScope"),
                       tr("<h3>LockScope %1</h3><p>Monitors and administers distributed locks kept in Redis: "
                          "single-instance locks and Redlock over N masters.</p><p>Built with Qt %2.</p>")
                           .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

void MainWindow::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_table->indexAt(pos);
    if (!index.isValid())
        return;
    QMenu menu(this);
    menu.addAction(m_copyResource);
    menu.addAction(m_copyToken);
    menu.addSeparator();
    menu.addAction(m_extend);
    menu.addAction(m_release);
    menu.addAction(m_forceRelease);
    menu.addSeparator();
    menu.addAction(tr("Filter to this resource"), this,
                   [this, index] { m_filter->setText(index.data(LockTableModel::ResourceRole).toString()); });
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

void MainWindow::setDemoLayout(bool demo)
{
    m_layoutGroup = demo ? QStringLiteral("demo") : QString();
}

void MainWindow::showEvent(QShowEvent* event)
{
    if (!m_layoutRestored) {
        m_layoutRestored = true;
        m_defaultLayout = saveState();
        restoreLayout();
    }
    QMainWindow::showEvent(event);
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultLayout);
    applyDefaultDockSizes();
    if (auto* split = findChild<QSplitter*>(QStringLiteral("centralSplit")))
        split->setSizes({700, 300}); // the table takes most of the height, as on first start
}

void MainWindow::applyDefaultDockSizes()
{
    // First start: room for five masters, the table, and a readable event log.
    const int row = m_masterView->fontMetrics().height() + 8;
    resizeDocks({findChild<QDockWidget*>(QStringLiteral("mastersDock"))}, {row * 7 + 8}, Qt::Vertical);
    resizeDocks({findChild<QDockWidget*>(QStringLiteral("eventsDock"))}, {row * 6 + 8}, Qt::Vertical);
}

void MainWindow::restoreLayout()
{
    QSettings settings;
    if (!m_layoutGroup.isEmpty())
        settings.beginGroup(m_layoutGroup); // the demo's layout apart from normal sessions'
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1440, 900);
    WindowFit::keepOnScreen(this); // neither the default size nor a restored one may exceed the screen
    if (!restoreState(settings.value(QStringLiteral("window/state")).toByteArray()))
        applyDefaultDockSizes();
    m_table->horizontalHeader()->restoreState(
        settings.value(QStringLiteral("window/locksHeader")).toByteArray());
    m_masterView->header()->restoreState(
        settings.value(QStringLiteral("window/mastersHeader")).toByteArray());
    if (auto* split = findChild<QSplitter*>(QStringLiteral("centralSplit")))
        split->restoreState(settings.value(QStringLiteral("window/centralSplit")).toByteArray());
    m_proxy->sort(m_table->horizontalHeader()->sortIndicatorSection(),
                  m_table->horizontalHeader()->sortIndicatorOrder());
}

void MainWindow::saveLayout()
{
    QSettings settings;
    if (!m_layoutGroup.isEmpty())
        settings.beginGroup(m_layoutGroup);
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/locksHeader"), m_table->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("window/mastersHeader"), m_masterView->header()->saveState());
    if (auto* split = findChild<QSplitter*>(QStringLiteral("centralSplit")))
        settings.setValue(QStringLiteral("window/centralSplit"), split->saveState());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_layoutRestored) // never shown: nothing of the user's layout to keep
        saveLayout();
    event->accept();
}

void MainWindow::changeEvent(QEvent* event)
{
    // Colours come from the palette: a theme switch repaints with the new ones.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
        m_table->viewport()->update();
        m_masterView->viewport()->update();
        updateDetail();
    }
    QMainWindow::changeEvent(event);
}

} // namespace lockscope
