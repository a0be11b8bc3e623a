// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/launchconfig.h"
#include "config/lockscopeconfig.h"
#include "eventlog/coreeventlog.h"
#include "locking/redlocklease.h"
#include "window/windowactions.h"

#include <QHash>
#include <QMainWindow>

#include <functional>
#include <memory>

class QAction;
class QDialog;

namespace lockscope {

class AuditWatch;
class BatchQueue;
class CentralSplit;
class CoreThread;
class EventLogDock;
class EventLogModel;
class FirstPaintWait;
class HistoryDock;
class HistoryView;
class LiveHistory;
class LockDiagnosisWatch;
class LockDetailPane;
class LockFilterProxy;
class LockTableModel;
class LockTableView;
class MastersDock;
class ProductionWrites;
class MasterTableModel;
class ViewExport;
class WindowIncidents;
class WindowInsights;
class WindowTrace;
class WindowRecording;
class WindowLayout;
class WindowStatusBar;

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
    // Post-mortem review of the recording `path` (`lockscope --db FILE`): no masters, nothing
    // written, no notification; the History dock lists its resources (`select` first).
    void review(const QString& path, const QByteArray& select = {});
    // This run records into `path` and its History reads it (the demo's own recording).
    void recordInto(const QString& path);
    bool isReview() const { return !m_reviewPath.isEmpty(); }
    // How this process was started: a profile chosen with Ctrl+K combines with it (LaunchConfig).
    // Without this call the configuration given to the constructor counts as the launch's.
    void setLaunchConfig(const LaunchConfig& launch);
    // The demo keeps its window layout apart from normal sessions' (its own settings group): its
    // dock arrangement never leaks into the next normal start. Call before show().
    void setDemoLayout(bool demo);
    // Back to the default arrangement of docks and toolbars (View > Reset layout).
    void resetLayout();
    QAction* resetLayoutAction() const { return m_actions.resetLayout; }

    // The connection profile the masters came from, named once in the title ("" for none).
    void setProfileName(const QString& name);
    // Keyspace events `taken` returns true for are not listed one by one in the event log: whoever
    // installed it accounts for them (the demo summarises its own simulated clients' events).
    void setKeyspaceEventFilter(std::function<bool(const KeyspaceEventRecord&)> taken)
    {
        m_eventLog->setKeyspaceEventFilter(std::move(taken));
    }

    CoreThread* core() const { return m_core.get(); }
    LockTableModel* lockModel() const { return m_locks; }
    LockFilterProxy* lockProxy() const { return m_proxy; }
    LockTableView* lockView() const { return m_table; }
    MasterTableModel* masterModel() const { return m_masters; }
    EventLogModel* eventLog() const { return m_events; }
    LockDetailPane* detailPane() const { return m_detail; }
    BatchQueue* batchQueue() const { return m_queue; }
    LiveHistory* history() const { return m_history; }
    HistoryView* historyView() const { return m_historyView; }
    HistoryDock* historyDock() const { return m_historyDock; }
    // The flight recorder's switch (View > Record history) and the recording the History reads.
    WindowRecording* recording() const { return m_recording; }
    WindowIncidents* incidents() const { return m_incidents; }
    WindowInsights* insights() const { return m_insights; }
    WindowTrace* trace() const { return m_trace; }
    // File > Unlock writes on a production profile.
    ProductionWrites* productionWrites() const { return m_production; }
    // The selected lock's diagnosis and the notification rules (review mode silences its notifier).
    LockDiagnosisWatch* diagnosisWatch() const { return m_diagnosis; }
    bool isReadOnly() const { return m_readOnly; }
    bool isInitialScanFinished() const { return m_initialScanFinished; }
    QAction* forceReleaseAction() const { return m_actions.forceRelease; }
    QAction* traceAction() const { return m_actions.trace; }
    QAction* acquireAction() const { return m_actions.acquire; }
    QAction* connectionsAction() const { return m_actions.connections; }

    // Why the write actions are greyed, if they are: their tooltips say it (issue #20).
    QAction* extendAction() const { return m_actions.extend; }
    QAction* releaseAction() const { return m_actions.release; }
    QAction* copyResourceAction() const { return m_actions.copyResource; }
    QAction* enableEventsAction() const { return m_actions.enableEvents; }
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
    void buildCentral();
    void buildDocks();
    void connectCore();
    void showDialog(QDialog* dialog);

    void onStarted(const QStringList& masters, bool readOnly, const QString& auditPath);
    void onMaster(const MasterSnapshot& snapshot);
    void onRedlock(const RedlockReport& report);
    void onForceReleased(const ForceReleaseReport& report);
    void onSelectionChanged();
    void updateDetail();
    void updateActions();
    void updateStatusBar();
    // Sizes the per-lock tables for the locks the first scan is expected to find.
    void reserveRows(qint64 locks);
    void updateHistory();
    void updateTitle();

    void acquire();
    void extend();
    void release();
    void forceRelease();
    void copyResource();
    void copyToken();
    void showAuditLog();
    void showConnections();
    void showAuditLost(const QString& message);
    void checkAudit();
    void enableKeyspaceEvents(const QList<int>& masters);

    QByteArray selectedResource() const;

    std::unique_ptr<CoreThread> m_core;
    LaunchConfig m_launch;
    LockScopeConfig m_config;
    QString m_auditPath;
    QStringList m_masterNames;
    bool m_readOnly = false;
    bool m_initialScanFinished = false;
    qint64 m_reservedRows = 0; // what the per-lock tables were sized for (locksForeseen)
    QHash<QByteArray, RedlockLease> m_leases;
    QByteArray m_pendingSelect;
    QString m_profileName;
    QString m_reviewPath;

    LockTableModel* m_locks;
    LockFilterProxy* m_proxy;
    MasterTableModel* m_masters;
    EventLogModel* m_events;
    BatchQueue* m_queue;
    LiveHistory* m_history;
    WindowRecording* m_recording;
    WindowIncidents* m_incidents = nullptr;
    WindowInsights* m_insights = nullptr;
    WindowTrace* m_trace = nullptr;
    ProductionWrites* m_production = nullptr;
    HistoryView* m_historyView = nullptr;
    ViewExport* m_export;
    CoreEventLog* m_eventLog;
    LockDiagnosisWatch* m_diagnosis = nullptr;
    AuditWatch* m_audit;
    FirstPaintWait* m_firstPaint; // the masters are opened once the window has been painted
    WindowActions m_actions;
    std::unique_ptr<WindowLayout> m_layout;

    CentralSplit* m_central = nullptr;
    LockTableView* m_table = nullptr;   // the central split's
    LockDetailPane* m_detail = nullptr; // the central split's
    MastersDock* m_mastersDock = nullptr;
    EventLogDock* m_eventsDock = nullptr;
    HistoryDock* m_historyDock = nullptr;
    WindowStatusBar* m_statusBar = nullptr;
};

} // namespace lockscope
