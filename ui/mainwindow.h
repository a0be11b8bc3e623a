#pragma once

#include "config/launchconfig.h"
#include "config/lockscopeconfig.h"
#include "locking/redlocklease.h"

#include <QHash>
#include <QMainWindow>

#include <functional>
#include <memory>

class QAction;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTimer;
class QTableView;
class QTreeView;
class QToolButton;

namespace lockscope {

class BatchQueue;
class EmptyState;
class CoreThread;
class EventLogModel;
class HistoryTimeline;
class HistoryTracker;
class LockDetailPane;
class LockFilterProxy;
class LockTableModel;
class LockTableView;
class MasterTableModel;
struct ForceReleaseReport;
struct KeyspaceEventRecord;
struct MasterSnapshot;
struct RedlockReport;

// The LockScope window: masters panel, locks table with filters, the selected lock's detail pane,
// history, event log and the write actions. All Redis work happens in the CoreThread; this class
// only reacts to its queued signals and forwards user requests to it.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    MainWindow(LockScopeConfig config, QString auditLogPath, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Selects this resource as soon as it appears (now, if it is there already).
    void selectWhenSeen(const QByteArray& resource);
    // Starts (or restarts, on a new configuration) the core thread. Never less read-only than the
    // launch configuration allows (LaunchConfig::tightened).
    void monitor(const LockScopeConfig& config, const QString& auditLogPath);
    // How this process was started: a profile chosen with Ctrl+K combines with it (LaunchConfig).
    // Without this call the configuration given to the constructor counts as the launch's.
    void setLaunchConfig(const LaunchConfig& launch);
    // The demo keeps its window layout apart from normal sessions' (its own settings group): its
    // dock arrangement never leaks into the next normal start. Call before show().
    void setDemoLayout(bool demo);
    // Back to the default arrangement of docks and toolbars (View > Reset layout).
    void resetLayout();
    QAction* resetLayoutAction() const { return m_resetLayout; }

    // The connection profile the masters came from, named once in the title ("" for none).
    void setProfileName(const QString& name);
    // Keyspace events `taken` returns true for are not listed one by one in the event log: whoever
    // installed it accounts for them (the demo summarises its own simulated clients' events).
    void setKeyspaceEventFilter(std::function<bool(const KeyspaceEventRecord&)> taken)
    {
        m_keyspaceTaken = std::move(taken);
    }

    CoreThread* core() const { return m_core.get(); }
    LockTableModel* lockModel() const { return m_locks; }
    LockFilterProxy* lockProxy() const { return m_proxy; }
    LockTableView* lockView() const { return m_table; }
    MasterTableModel* masterModel() const { return m_masters; }
    EventLogModel* eventLog() const { return m_events; }
    LockDetailPane* detailPane() const { return m_detail; }
    BatchQueue* batchQueue() const { return m_queue; }
    HistoryTracker* history() const { return m_history; }
    bool isReadOnly() const { return m_readOnly; }
    bool isInitialScanFinished() const { return m_initialScanFinished; }
    QAction* forceReleaseAction() const { return m_forceRelease; }
    QAction* acquireAction() const { return m_acquire; }
    QAction* connectionsAction() const { return m_connections; }

    // Why the write actions are greyed, if they are: their tooltips say it (issue #20).
    QAction* extendAction() const { return m_extend; }
    QAction* releaseAction() const { return m_release; }
    QAction* copyResourceAction() const { return m_copyResource; }
    QAction* enableEventsAction() const { return m_enableEvents; }
    QWidget* emptyState() const;

signals:
    void initialScanFinished();
    // "Start the demo" from the empty window: main() knows how to start it.
    void demoRequested();

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildActions();
    void buildMenus();
    void buildCentral();
    void buildDocks();
    void buildStatusBar();
    void connectCore();
    void restoreLayout();
    void saveLayout();
    void applyDefaultDockSizes();

    void onStarted(const QStringList& masters, bool readOnly, const QString& auditPath);
    void onMaster(const MasterSnapshot& snapshot);
    void onKeyspaceEvents(const QList<KeyspaceEventRecord>& events, int dropped);
    void onRedlock(const RedlockReport& report);
    void onForceReleased(const ForceReleaseReport& report);
    void onScanProgress(int master, qint64 scanned, qint64 total);
    void onSelectionChanged();
    void updateDetail();
    void updateActions();
    void updateStatusBar();
    void updateHistory();
    void updateTitle();

    void acquire();
    void extend();
    void release();
    void forceRelease();
    void copyResource();
    void copyToken();
    void exportCsv();
    void exportJson();
    void exportHistory(bool json);
    void showAuditLog();
    void showConnections();
    void showAbout();
    void showContextMenu(const QPoint& pos);
    void showAuditLost(const QString& message);
    void checkAudit();
    // The masters that answer but only poll (the one picked in the masters panel, if any and asked).
    QList<int> pollingMasters(bool preferSelected) const;
    void enableKeyspaceEvents(const QList<int>& masters);

    QByteArray selectedResource() const;

    std::unique_ptr<CoreThread> m_core;
    LaunchConfig m_launch;
    LockScopeConfig m_config;
    QString m_auditPath;
    QStringList m_masterNames;
    bool m_readOnly = false;
    bool m_initialScanFinished = false;
    QHash<QByteArray, RedlockLease> m_leases;
    QHash<int, QPair<qint64, qint64>> m_progress;
    QHash<quint64, QString> m_pendingExports;
    QList<int> m_lastMasterState;
    QByteArray m_pendingSelect;
    QString m_profileName;
    QString m_layoutGroup;      // settings group of the window layout: "" normally, "demo" in the demo
    QByteArray m_defaultLayout; // docks and toolbars as built, before a saved layout was restored
    bool m_layoutRestored = false;
    QString m_auditProblem; // why the audit log cannot be appended to, or empty
    QTimer* m_auditRecheck = nullptr;
    std::function<bool(const KeyspaceEventRecord&)> m_keyspaceTaken;

    LockTableModel* m_locks;
    LockFilterProxy* m_proxy;
    MasterTableModel* m_masters;
    EventLogModel* m_events;
    BatchQueue* m_queue;
    HistoryTracker* m_history;

    LockTableView* m_table = nullptr;
    EmptyState* m_emptyState = nullptr;
    QLineEdit* m_filter = nullptr;
    QList<QToolButton*> m_quickButtons;
    LockDetailPane* m_detail = nullptr;
    QTreeView* m_masterView = nullptr;
    QTableView* m_eventView = nullptr;
    HistoryTimeline* m_timeline = nullptr;
    QLabel* m_totals = nullptr;
    QLabel* m_mastersUp = nullptr;
    QLabel* m_scanScope = nullptr; // the patterns scanned, or which master's keys they all miss
    QLabel* m_readOnlyBadge = nullptr;
    QProgressBar* m_progressBar = nullptr;

    QAction* m_refresh = nullptr;
    QAction* m_acquire = nullptr;
    QAction* m_extend = nullptr;
    QAction* m_release = nullptr;
    QAction* m_forceRelease = nullptr;
    QAction* m_copyResource = nullptr;
    QAction* m_copyToken = nullptr;
    QAction* m_exportCsv = nullptr;
    QAction* m_exportJson = nullptr;
    QAction* m_auditLog = nullptr;
    QAction* m_connections = nullptr;
    QAction* m_about = nullptr;
    QAction* m_quit = nullptr;
    QAction* m_focusFilter = nullptr;
    QAction* m_resetLayout = nullptr;
    QAction* m_enableEvents = nullptr;
    QAction* m_statusHelp = nullptr;
    QAction* m_cliHelp = nullptr;
};

} // namespace lockscope
