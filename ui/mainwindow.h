#pragma once

#include "launchconfig.h"
#include "lockscopeconfig.h"
#include "redlocklease.h"

#include <QHash>
#include <QMainWindow>

#include <functional>
#include <memory>

class QAction;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTableView;
class QTreeView;
class QToolButton;

namespace lockscope {

class BatchQueue;
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

signals:
    void initialScanFinished();

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void buildActions();
    void buildMenus();
    void buildCentral();
    void buildDocks();
    void buildStatusBar();
    void connectCore();
    void restoreLayout();
    void saveLayout();

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
    std::function<bool(const KeyspaceEventRecord&)> m_keyspaceTaken;

    LockTableModel* m_locks;
    LockFilterProxy* m_proxy;
    MasterTableModel* m_masters;
    EventLogModel* m_events;
    BatchQueue* m_queue;
    HistoryTracker* m_history;

    LockTableView* m_table = nullptr;
    QLineEdit* m_filter = nullptr;
    QList<QToolButton*> m_quickButtons;
    LockDetailPane* m_detail = nullptr;
    QTreeView* m_masterView = nullptr;
    QTableView* m_eventView = nullptr;
    HistoryTimeline* m_timeline = nullptr;
    QLabel* m_totals = nullptr;
    QLabel* m_mastersUp = nullptr;
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
};

} // namespace lockscope
