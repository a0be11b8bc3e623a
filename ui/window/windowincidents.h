// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/safetyincident.h"

#include <QObject>
#include <QPointer>

#include <memory>

class QDockWidget;
class QMainWindow;
class QThread;

namespace lockscope {

class IncidentsDock;
class IncidentsModel;
class LockDetailPane;
class LockDiagnosisWatch;
class WindowRecording;
class WindowStatusBar;

// The window's part of two holders at once (docs/manual/two-holders.md): the Incidents dock, their
// count in the status bar (a click shows the dock), the selected lock's in the detail pane, and the
// double-grant notification. Fed by the
// core's watch of the recording while the window records, or, in a review (`lockscope --db`), by one
// pass over the whole file on a thread of its own.
class WindowIncidents final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WindowIncidents)

public:
    struct Parts
    {
        QMainWindow* window;
        WindowRecording* recording;
        WindowStatusBar* statusBar;
        LockDiagnosisWatch* diagnosis;
        QDockWidget* tabbedWith; // the dock it shares a place with (the History dock)
        LockDetailPane* pane;    // names the selected lock's incidents
    };

    explicit WindowIncidents(const Parts& parts);
    ~WindowIncidents() override;

    IncidentsModel* model() const { return m_model; }
    IncidentsDock* dock() const { return m_dock; }
    // One incident found (listed once, however often it is found again).
    void add(const SafetyIncident& incident);

signals:
    // The user asked for a lock's history from the list.
    void lockChosen(const QByteArray& resource);

private:
    void review(const QString& path);
    void stopReview();
    // The status bar's count and the detail pane's lines, after the list changed.
    void showCounts();
    void showIn(const QByteArray& resource);

    Parts m;
    IncidentsModel* m_model;
    IncidentsDock* m_dock;
    std::unique_ptr<QThread> m_reviewThread;
};

} // namespace lockscope
