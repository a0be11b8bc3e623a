// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

class QAction;

namespace lockscope {

class ActionGate;

// The window's actions, shared by its menus, its toolbar and the locks table's context menu. The
// window creates them (they trigger its slots); this says which of them may run.
struct WindowActions
{
    Q_DECLARE_TR_FUNCTIONS(WindowActions)

public:
    // Enables each write and copy as `gate` allows, its tooltip and status tip saying what it does
    // and, when greyed, why. `anyPolling`: some master that answers still polls (keyspace events
    // off), so there is something for "Enable keyspace events" to do.
    void applyGate(const ActionGate& gate, int pollIntervalMs, bool anyPolling);

    QAction* refresh = nullptr;
    QAction* acquire = nullptr;
    QAction* extend = nullptr;
    QAction* release = nullptr;
    QAction* forceRelease = nullptr;
    QAction* trace = nullptr; // who touches the selected lock (WindowTrace)
    QAction* copyResource = nullptr;
    QAction* copyToken = nullptr;
    QAction* exportCsv = nullptr;
    QAction* exportJson = nullptr;
    QAction* auditLog = nullptr;
    QAction* connections = nullptr;
    QAction* productionWrites = nullptr; // File > Unlock writes (ProductionWrites), production profiles
    QAction* about = nullptr;
    QAction* quit = nullptr;
    QAction* focusFilter = nullptr;
    QAction* resetLayout = nullptr;
    QAction* enableEvents = nullptr;
    QAction* statusHelp = nullptr;
    QAction* cliHelp = nullptr;
    QAction* record = nullptr; // checkable: the flight recorder (WindowRecording)
    QAction* zoomIn = nullptr; // View > Zoom (TextZoom)
    QAction* zoomOut = nullptr;
    QAction* zoomReset = nullptr;
};

} // namespace lockscope
