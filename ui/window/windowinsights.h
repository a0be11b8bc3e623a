// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

class QDockWidget;
class QMainWindow;
class QThread;

namespace lockscope {

class InsightsDock;
class InsightsModel;
class WindowRecording;

// The window's part of how locks behave (docs/manual/insights.md): the Insights dock, fed by
// passes over the recording (FamilyStatsPass) on threads of their own, so that a recording of a
// million locks never stalls the window. A pass runs when the dock is shown, on Refresh or a new
// span, after a review opens, and while shown and recording, again once its figures are old: at
// most every minute, and never more often than ten times its own length (a long pass is not
// repeated back to back).
class WindowInsights final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WindowInsights)

public:
    static constexpr int minRefreshMs = 60 * 1000;

    WindowInsights(QMainWindow* window, WindowRecording* recording, QDockWidget* tabbedWith);
    ~WindowInsights() override;

    InsightsModel* model() const { return m_model; }
    InsightsDock* dock() const { return m_dock; }
    // Reads the recording again now (a pass under way gives way to it).
    void refresh();
    bool isReading() const { return m_reading != nullptr; }

signals:
    // A pass finished and its figures are shown (or it failed, said in the dock).
    void refreshed();

private:
    void refreshIfStale();
    void stopReading();
    void scheduleNext(qint64 tookMs);

    WindowRecording* m_recording;
    InsightsModel* m_model;
    InsightsDock* m_dock;
    QThread* m_reading = nullptr;
    quint64 m_generation = 0;
    bool m_stale = true;
    QTimer m_nextRefresh;
};

} // namespace lockscope
