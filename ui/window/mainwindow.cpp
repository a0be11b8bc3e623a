// SPDX-License-Identifier: Apache-2.0
#include "window/mainwindow.h"

#include "base/bytesdisplay.h"
#include "connections/connectionsdialog.h"
#include "connections/productionwrites.h"
#include "detail/lockdetailpane.h"
#include "eventlog/eventlogdock.h"
#include "eventlog/eventlogmodel.h"
#include "history/historydock.h"
#include "history/historyview.h"
#include "locks/batchqueue.h"
#include "locks/lockfilterbar.h"
#include "locks/lockfilterproxy.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "locks/selectionkeeper.h"
#include "locks/tableroom.h"
#include "masters/mastersdock.h"
#include "masters/mastertablemodel.h"
#include "notifications/desktopnotifier.h"
#include "notifications/lockdiagnosiswatch.h"
#include "record/livehistory.h"
#include "session/corethread.h"
#include "widgets/emptystate.h"
#include "window/centralsplit.h"
#include "window/commandlinehelpdialog.h"
#include "window/firstpaintwait.h"
#include "window/statushelpdialog.h"
#include "window/textzoom.h"
#include "window/viewexport.h"
#include "window/windowincidents.h"
#include "window/windowinsights.h"
#include "window/windowlayout.h"
#include "window/windowmenus.h"
#include "window/windowrecording.h"
#include "window/windowstatusbar.h"
#include "window/windowtitle.h"
#include "window/windowtrace.h"
#include "writes/acquiredialog.h"
#include "writes/actiongate.h"
#include "writes/auditlogdialog.h"
#include "writes/auditwatch.h"
#include "writes/forcereleasedialog.h"

#include <QAction>
#include <QClipboard>
#include <QCloseEvent>
#include <QMessageBox>
#include <QPointer>
#include <QTreeView>

#include <utility>

namespace lockscope {

MainWindow::MainWindow(LockScopeConfig config, QString auditLogPath, QWidget* parent)
    : QMainWindow(parent), m_launch(config, {}), m_config(std::move(config)),
      m_auditPath(std::move(auditLogPath)), m_locks(new LockTableModel(this)),
      m_proxy(new LockFilterProxy(this)), m_masters(new MasterTableModel(this)),
      m_events(new EventLogModel(5000, this)), m_queue(new BatchQueue(m_locks, this)),
      m_history(new LiveHistory(this)), m_recording(new WindowRecording(this)),
      m_export(new ViewExport(this, m_locks, m_proxy)), m_eventLog(new CoreEventLog(m_events, this)),
      m_audit(new AuditWatch(this)), m_firstPaint(new FirstPaintWait(this))
{
    setWindowTitle(WindowTitle::text(QString(), 0, false));
    setWindowIcon(QIcon(QStringLiteral(":/icons/lockscope.svg")));
    m_proxy->setSourceModel(m_locks);
    connect(m_audit, &AuditWatch::recheckDue, this, &MainWindow::checkAudit);
    connect(m_audit, &AuditWatch::teamArrived, m_eventLog, &CoreEventLog::teamWrites);
    buildActions();
    m_actions.record = m_recording->action();
    m_production = new ProductionWrites(this, [this](const LockScopeConfig& c) { monitor(c, m_auditPath); });
    m_actions.productionWrites = m_production->action();
    buildCentral();
    buildDocks();
    WindowMenus::build(this, m_actions, m_central->filterBar());
    m_statusBar = new WindowStatusBar(this);
    setStatusBar(m_statusBar);
    connect(m_export, &ViewExport::exported, this,
            [this](const QString& message) { statusBar()->showMessage(message, 5000); });
    m_layout = std::make_unique<WindowLayout>(
        WindowLayout::Parts{this, m_central, m_table->horizontalHeader(), m_proxy, m_mastersDock->view(),
                            m_mastersDock, m_eventsDock});
    updateStatusBar();
    // The saved layout is restored at the first showEvent, once main() has set up the demo, if any.
    resize(1440, 900);

    connect(m_queue, &BatchQueue::applied, this, [this](const LockBatch& slice) {
        m_history->observe(slice);
        if (!m_pendingSelect.isEmpty() && m_locks->rowOf(m_pendingSelect) >= 0)
            selectWhenSeen(m_pendingSelect);
        const QByteArray selected = selectedResource();
        const bool touched =
            !selected.isEmpty() && (slice.removed.contains(selected) || slice.hasView(selected));
        if (touched) {
            updateDetail();
            updateHistory();
        }
        m_diagnosis->observe(slice);
    });
    connect(m_locks, &LockTableModel::countsChanged, this, &MainWindow::updateStatusBar);
    m_diagnosis = new LockDiagnosisWatch(this);
    m_diagnosis->setPane(m_detail);
    m_diagnosis->setEventLog(m_events);
    connect(m_diagnosis, &LockDiagnosisWatch::notified, m_recording, &WindowRecording::notified);
    m_incidents = new WindowIncidents({this, m_recording, m_statusBar, m_diagnosis, m_historyDock, m_detail});
    m_insights = new WindowInsights(this, m_recording, m_historyDock);
    m_eventsDock->raise(); // tabified last, Insights was on top: a first start shows the event log
    connect(m_incidents, &WindowIncidents::lockChosen, this, [this](const QByteArray& resource) {
        isReview() ? m_historyView->choose(resource) : selectWhenSeen(resource);
        m_historyDock->raise();
    });
    m_trace = new WindowTrace(this, [this] { return selectedResource(); });
    m_recording->showIn(m_historyView, statusBar());
    m_history->setRecorded(m_recording->isRecording());
    connect(m_recording, &WindowRecording::toggled, m_history, &LiveHistory::setRecorded);
    monitor(m_config, m_auditPath);
}

MainWindow::~MainWindow() = default;

void MainWindow::selectWhenSeen(const QByteArray& resource)
{
    m_pendingSelect = resource;
    if (m_locks->rowOf(resource) >= 0)
        m_table->selectResource(std::exchange(m_pendingSelect, {}));
}

void MainWindow::setLaunchConfig(const LaunchConfig& launch)
{
    m_launch = launch;
    if (m_launch.isReadOnlyForGood() && !m_config.readOnly)
        monitor(m_config, m_auditPath);
    m_production->setConfig(m_config, m_launch.unlocked(m_config));
}

void MainWindow::setProfileName(const QString& name)
{
    m_profileName = name;
    m_diagnosis->setRulesFromProfile(name);
    updateTitle();
}

void MainWindow::recordInto(const QString& path)
{
    m_recording->recordInto(path, m_config.teamDatabasePassword);
}

void MainWindow::review(const QString& path, const QByteArray& select)
{
    m_reviewPath = path;
    m_recording->review(path, m_config.teamDatabasePassword);
    m_diagnosis->notifier()->setSilent(true);
    m_actions.connections->setEnabled(false); // no master is to be reached from a review
    m_historyView->review(path, select, m_config.teamDatabasePassword);
    m_layout->arrangeForReview(m_historyDock);
    m_statusBar->setReview(tr("Review of %1: no master is watched").arg(path));
    updateActions();
    updateTitle();
}

void MainWindow::updateTitle()
{
    if (isReview())
        return setWindowTitle(tr("Review of %1 — %2").arg(m_reviewPath, WindowTitle::applicationName()));
    setWindowTitle(
        WindowTitle::text(m_profileName, int(m_masterNames.size()), m_readOnly, m_config.production));
}

void MainWindow::monitor(const LockScopeConfig& requested, const QString& auditLogPath)
{
    const LockScopeConfig config = m_launch.tightened(requested);
    m_core.reset(); // stops the old core thread first
    m_config = config;
    m_auditPath = auditLogPath;
    m_audit->followTeam(config.teamDatabase, config.teamDatabasePassword);
    m_initialScanFinished = false;
    m_statusBar->clearScanProgress();
    m_leases.clear();
    // A new set of masters: the old rows mean nothing any more (nor does the selection: it is
    // cleared first, so that the pane does not report the lock as released or expired).
    if (m_table)
        m_table->selectionModel()->clearCurrentIndex();
    m_queue->clear(); // the old masters' changes still waiting
    m_locks->removeAll();
    m_core = std::make_unique<CoreThread>(config, auditLogPath);
    connectCore();
    m_core->start(CoreThread::MastersOpen::Later);
    m_firstPaint->then(m_core.get(), [core = m_core.get()] { core->openMasters(); });
    m_recording->attach(m_core.get(), auditLogPath);
    m_trace->attach(m_core.get());
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
    WindowActions& a = m_actions;
    a.refresh = make(tr("&Refresh"), QKeySequence::Refresh, [this] { m_core->call(&CoreService::refresh); });
    a.acquire = make(tr("&Acquire…"), QKeySequence(tr("Ctrl+N")), &MainWindow::acquire);
    a.extend = make(tr("&Extend"), QKeySequence(tr("Ctrl+E")), &MainWindow::extend);
    a.release = make(tr("Re&lease"), QKeySequence(tr("Ctrl+R")), &MainWindow::release);
    a.forceRelease = make(tr("&Force-release…"), QKeySequence(tr("Shift+Del")), &MainWindow::forceRelease);
    a.trace = make(tr("&Trace who touches it"), QKeySequence(tr("Ctrl+T")), [this] { m_trace->start(); });
    a.copyResource = make(tr("Copy &resource"), QKeySequence::Copy, &MainWindow::copyResource);
    a.copyToken = make(tr("Copy &token"), QKeySequence(tr("Ctrl+Shift+C")), &MainWindow::copyToken);
    a.exportCsv = make(tr("Export view as &CSV…"), QKeySequence(), [this] { m_export->exportCsv(); });
    a.exportJson =
        make(tr("Export view as &JSON…"), QKeySequence(), [this] { m_export->exportJson(m_core.get()); });
    a.auditLog = make(tr("&Audit log…"), QKeySequence(tr("Ctrl+L")), &MainWindow::showAuditLog);
    a.connections = make(tr("&Connections…"), QKeySequence(tr("Ctrl+K")), &MainWindow::showConnections);
    a.about = make(tr("&About LockScope"), QKeySequence(), [this] { WindowMenus::showAbout(this); });
    a.quit = make(tr("&Quit"), QKeySequence::Quit, &QWidget::close);
    a.enableEvents = make(tr("Enable &keyspace events…"), QKeySequence(),
                          [this] { enableKeyspaceEvents(m_mastersDock->pollingMasters(true)); });
    a.enableEvents->setObjectName(QStringLiteral("enableKeyspaceEvents"));
    a.statusHelp = make(tr("What each &status means"), QKeySequence::HelpContents,
                        [this] { showDialog(new StatusHelpDialog(this)); });
    a.cliHelp = make(tr("&Command-line reference (lockctl, lockscope)"), QKeySequence(),
                     [this] { showDialog(new CommandLineHelpDialog(this)); });
    a.focusFilter = make(tr("&Filter"), QKeySequence::Find, [this] { m_central->filterBar()->focusText(); });
    a.resetLayout = make(tr("Reset &layout"), QKeySequence(), &MainWindow::resetLayout);
    a.resetLayout->setObjectName(QStringLiteral("resetLayout"));
    a.resetLayout->setToolTip(tr("Put every dock and toolbar back where it was at the first start"));
    auto* zoom = new TextZoom(this);
    a.zoomIn = zoom->zoomInAction();
    a.zoomOut = zoom->zoomOutAction();
    a.zoomReset = zoom->resetAction();
}

void MainWindow::showDialog(QDialog* dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::buildCentral()
{
    m_central = new CentralSplit(m_proxy, this);
    m_table = m_central->table();
    m_detail = m_central->detail();
    // Kept by resource, not by row: a lock that goes away leaves nothing selected (SelectionKeeper).
    connect(m_table, &LockTableView::selectedResourceChanged, this, &MainWindow::onSelectionChanged);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_table->indexAt(pos);
        if (index.isValid())
            WindowMenus::execLockMenu(this, m_actions, m_central->filterBar(),
                                      index.data(LockTableModel::ResourceRole).toString(),
                                      m_table->viewport()->mapToGlobal(pos));
    });
    connect(m_table, &QAbstractItemView::doubleClicked, this, [this] { m_detail->setFocus(); });
    connect(m_central->emptyState(), &EmptyState::connectRequested, m_actions.connections, &QAction::trigger);
    connect(m_central->emptyState(), &EmptyState::demoRequested, this, &MainWindow::demoRequested);
    setCentralWidget(m_central);
}

void MainWindow::buildDocks()
{
    setDockNestingEnabled(true);
    m_mastersDock = new MastersDock(m_masters, this);
    connect(m_mastersDock, &MastersDock::enableKeyspaceEventsRequested, this,
            &MainWindow::enableKeyspaceEvents);
    addDockWidget(Qt::TopDockWidgetArea, m_mastersDock);
    m_eventsDock = new EventLogDock(m_events, this);
    addDockWidget(Qt::BottomDockWidgetArea, m_eventsDock);
    m_historyDock = new HistoryDock(this);
    connect(m_historyDock, &HistoryDock::exportRequested, this, [this](bool json) {
        m_export->exportHistory(m_historyView->resource(), json,
                                [view = m_historyView, json] { return view->exported(json); });
    });
    addDockWidget(Qt::BottomDockWidgetArea, m_historyDock);
    tabifyDockWidget(m_eventsDock, m_historyDock);
    m_eventsDock->raise();
    m_historyView = new HistoryView(m_history, m_historyDock, this);
    connect(m_history, &LiveHistory::changed, m_historyView, &HistoryView::liveChanged);
}

// Below this many locks the tables grow as they like: their growth costs nothing yet.
constexpr qint64 minForecastRows = 1024;

void MainWindow::reserveRows(qint64 locks)
{
    if (m_initialScanFinished || locks < minForecastRows || locks <= m_reservedRows)
        return;
    // Room to spare: the forecast wavers while few pages are in, and each revision rehashes what
    // the tables hold by then (a little, early on).
    m_reservedRows = tableRoomFor(locks);
    const qsizetype room = qsizetype(m_reservedRows);
    // One table a turn of the event loop: their rehashes in the same slice were what stalled.
    m_locks->reserve(room);
    QTimer::singleShot(0, this, [this, room] {
        m_history->reserve(room);
        QTimer::singleShot(0, this, [this, room] { m_diagnosis->reserve(room); });
    });
}

void MainWindow::connectCore()
{
    CoreService* s = m_core->service();
    m_diagnosis->attach(m_core.get());
    connect(s, &CoreService::started, this, &MainWindow::onStarted);
    connect(s, &CoreService::masterChanged, this, &MainWindow::onMaster);
    connect(s, &CoreService::locksChanged, m_queue, &BatchQueue::enqueue);
    connect(m_queue, &BatchQueue::taken, m_core.get(),
            [core = m_core.get()](qsizetype steps) { core->call(&CoreService::windowTook, steps); });
    connect(s, &CoreService::locksForeseen, this, &MainWindow::reserveRows);
    connect(s, &CoreService::scanProgress, this, [this](int master, qint64 scanned, qint64 total) {
        if (!m_initialScanFinished)
            m_statusBar->setScanProgress(master, scanned, total);
    });
    connect(s, &CoreService::initialScanFinished, this, [this] {
        m_initialScanFinished = true;
        m_statusBar->setScanFinished();
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
    connect(s, &CoreService::keyspaceEvents, m_eventLog, &CoreEventLog::keyspaceEvents);
    connect(s, &CoreService::redlockFinished, this, &MainWindow::onRedlock);
    connect(s, &CoreService::forceReleaseFinished, this, &MainWindow::onForceReleased);
    connect(s, &CoreService::leasesChanged, this, [this](const QList<RedlockLease>& leases) {
        m_leases.clear();
        for (const RedlockLease& l : leases)
            m_leases.insert(l.resource, l);
        updateActions();
    });
    connect(s, &CoreService::leaseLost, m_eventLog, &CoreEventLog::leaseLost);
    connect(s, &CoreService::jsonExported, m_export, &ViewExport::jsonExported);
    // Sentinel failovers (#8): the at-risk mark comes with the locks; the log says what happened.
    connect(s, &CoreService::failoverDetected, m_eventLog, &CoreEventLog::failoverDetected);
    connect(s, &CoreService::failoverReported, m_eventLog, &CoreEventLog::failoverReported);
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
    m_config.readOnly = readOnly; // the core stays read-only when it cannot record a production unlock
    m_production->setConfig(m_config, m_launch.unlocked(m_config));
    m_auditPath = auditPath;
    m_locks->setMasterNames(masters);
    m_detail->setMasterNames(masters);
    m_masters->setMasters(masters);
    m_eventLog->setMasterNames(masters);
    m_history->setMasters(masters);
    m_historyView->setMasters(masters);
    m_mastersDock->setReadOnly(readOnly);
    m_statusBar->setStarted(readOnly, m_config.production, !masters.isEmpty());
    updateTitle();
    checkAudit();
    updateStatusBar();
}

void MainWindow::onMaster(const MasterSnapshot& snapshot)
{
    const MasterSnapshot before =
        snapshot.index < m_masters->rowCount() ? m_masters->snapshot(snapshot.index) : MasterSnapshot();
    m_masters->update(snapshot);
    m_eventLog->masterChanged(snapshot, before);
    updateStatusBar();
    if (snapshot.state != before.state || snapshot.mode != before.mode)
        updateActions(); // the quorum may have come or gone, keyspace events been turned on
}

void MainWindow::onRedlock(const RedlockReport& report)
{
    const QString text = m_eventLog->redlockFinished(report);
    if (report.outcome.ok() && report.action == QLatin1String("acquire"))
        selectWhenSeen(report.resource); // the lock just taken here is the one to look at
    statusBar()->showMessage(escapeBytes(report.resource) + QStringLiteral(": ") + text, 8000);
    m_core->call(&CoreService::refresh); // show the result now rather than at the next poll
}

void MainWindow::onForceReleased(const ForceReleaseReport& report)
{
    if (report.outcome.ok())
        m_history->markForceReleased(report.plan.request.resource);
    m_eventLog->forceReleaseFinished(report);
    m_core->call(&CoreService::refresh);
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
    // The demo's pinned lock, gone from the masters, stays in the table as its last view: the pane
    // says it is gone, as the row does, not "held".
    if (view && m_locks->isPinnedGone() && view->resource == m_locks->pinned())
        m_detail->setGone(view->resource);
    else if (!view && m_table->selection()->state() == SelectionKeeper::State::Gone)
        m_detail->setGone(m_table->selection()->goneResource());
    else
        m_detail->setView(view ? std::optional<LockView>(*view) : std::nullopt);
    updateActions();
}

void MainWindow::updateHistory()
{
    m_historyView->show(selectedResource());
}

void MainWindow::updateActions()
{
    const QByteArray resource = selectedResource();
    ActionGate::State state;
    state.masters = int(m_config.masters.size());
    state.mastersUp = m_masters->upCount();
    state.readOnly = m_readOnly;
    state.productionLocked = m_production->isLocked();
    state.auditProblem = m_audit->problem();
    state.auditPath = m_auditPath;
    state.selected = !resource.isEmpty() && m_locks->find(resource);
    state.ours = m_leases.contains(resource);
    m_actions.applyGate(ActionGate(state), m_config.monitor.pollIntervalMs,
                        !m_mastersDock->pollingMasters(false).isEmpty());
    // Nothing to watch: say what to do instead of showing an empty table.
    m_central->setNothingToWatch(state.masters == 0 && !isReview());
}

void MainWindow::updateStatusBar()
{
    m_statusBar->updateCounts(*m_locks, *m_proxy, *m_masters, m_config.monitor.patterns);
}

void MainWindow::checkAudit()
{
    if (m_auditPath.isEmpty())
        return;
    m_audit->check(m_auditPath, m_config.allowSharedAuditLog);
    updateActions();
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
        m_core->call(&CoreService::enableNotifications, i);
}

QWidget* MainWindow::emptyState() const
{
    return m_central->emptyState();
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
    m_core->request(&CoreService::acquire, dialog.resource(), dialog.ttlMs(), dialog.retries(),
                    dialog.keepAlive());
    m_events->add(EventLogModel::Kind::Action, escapeBytes(dialog.resource()),
                  tr("acquire requested (TTL %1 ms, %2 retries)").arg(dialog.ttlMs()).arg(dialog.retries()));
}

void MainWindow::extend()
{
    const QByteArray resource = selectedResource();
    const auto it = m_leases.constFind(resource);
    if (m_readOnly || it == m_leases.constEnd())
        return;
    m_core->request(&CoreService::extend, resource, it->ttlMs);
}

void MainWindow::release()
{
    const QByteArray resource = selectedResource();
    if (m_readOnly || !m_leases.contains(resource))
        return;
    m_core->request(&CoreService::release, resource);
}

void MainWindow::forceRelease()
{
    const LockView* view = m_locks->find(selectedResource());
    if (!view || !m_core)
        return;
    auto* dialog =
        new ForceReleaseDialog(m_core.get(), *view, m_masterNames, {m_readOnly, m_config.production}, this);
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

void MainWindow::showAuditLog()
{
    showDialog(new AuditLogDialog(m_auditPath, m_audit->team(), this));
}

void MainWindow::showConnections()
{
    ConnectionsDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted || !dialog.chosenConfig())
        return;
    // The profile brings its masters; the launch options stay, and read-only only tightens.
    const LockScopeConfig combined = m_launch.combine(*dialog.chosenConfig(), dialog.chosenLockedReadOnly(),
                                                      dialog.chosenPatterns(), dialog.chosenScanRate());
    m_profileName = dialog.chosenProfileName();
    monitor(combined, m_auditPath);
}

void MainWindow::showAuditLost(const QString& message)
{
    m_events->add(EventLogModel::Kind::Error, tr("audit log"), tr("NOT RECORDED: %1").arg(message));
    m_audit->showLost(m_auditPath, message);
}

void MainWindow::setDemoLayout(bool demo)
{
    m_layout->setGroup(demo ? QStringLiteral("demo") : QString());
}

void MainWindow::showEvent(QShowEvent* event)
{
    m_layout->restoreOnce();
    QMainWindow::showEvent(event);
}

void MainWindow::resetLayout()
{
    m_layout->reset();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_layout->isRestored()) // never shown: nothing of the user's layout to keep
        m_layout->save();
    event->accept();
}

void MainWindow::changeEvent(QEvent* event)
{
    // Colours come from the palette: a theme switch repaints with the new ones.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
        m_table->viewport()->update();
        m_mastersDock->view()->viewport()->update();
        updateDetail();
    }
    QMainWindow::changeEvent(event);
}

} // namespace lockscope
