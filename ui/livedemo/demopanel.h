// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "demo/democluster.h"
#include "demo/demoscenario.h"

#include <QList>
#include <QWidget>

class QBoxLayout;
class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSplitter;

namespace lockscope {

class BottomFollower;
class DemoSession;
class DemoTimeline;

// The live Redlock demo's controls: per master kill / restart / pause / resume, per client a
// stop-the-world pause, fencing on or off, the guided scenarios with their captions, the counters,
// the timeline and a running commentary. Everything it does goes through the session's cluster and
// simulation; nothing here touches a socket.
class DemoPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoPanel)

public:
    explicit DemoPanel(DemoSession* session, QWidget* parent = nullptr);

    // Docked beside the locks (a tall column) the groups stack; docked below them (a wide strip)
    // they stand side by side.
    void setStacked(bool stacked);

    DemoTimeline* timeline() const { return m_timeline; }
    QPushButton* masterButton(int master, const QString& action) const;
    QPushButton* clientPauseButton(int client) const { return m_clientPause.value(client); }
    QPushButton* scenarioButton(DemoScenario scenario) const;
    QCheckBox* fencingBox() const { return m_fencing; }
    QLabel* countersLabel() const { return m_counters; }
    QLabel* captionLabel() const { return m_caption; }
    QLabel* resultLabel() const { return m_result; }
    // The failover scenario's holders of lock:demo:failover on the Sentinel group, as the demo's
    // monitor of that group sees them; hidden until that scenario runs.
    QLabel* failoverLabel() const { return m_failover; }
    QPlainTextEdit* notes() const { return m_notes; }
    QPushButton* dismissButton() const { return m_dismiss; }
    QPushButton* restoreButton() const { return m_heal; }
    // The lock the shown caption's scenario is about (empty: none, or the caption was dismissed).
    const QByteArray& pinnedResource() const { return m_pinned; }

public slots:
    // What the scenario buttons do; menus may call them too.
    void runScenario(lockscope::DemoScenario scenario);
    // Restarts the killed masters, resumes the paused ones, and writes the sample locks again on
    // the masters that lost them.
    void restoreAllMasters();
    // Back to the introduction: the scenario's lock is no longer pinned in the locks table.
    void dismissCaption();
    // Demo > Renew the sample locks.
    void renewSamples();

signals:
    // The locks table should keep this resource in view (empty: none).
    void pinnedResourceChanged(const QByteArray& resource);

private:
    // The constructor's steps, in order (the order of creation is the tab order).
    void buildScenarios();
    void setUpOptions();
    void buildLayout();
    void connectSession();
    void onReady();
    void buildMasters(QWidget* box);
    void buildClients(QWidget* box);
    void updateMasters();
    void updateClients();
    void updateCounters();
    void updateFailover();
    void addNote(const QString& text);
    void setPinned(const QByteArray& resource);

    DemoSession* m_session;
    DemoTimeline* m_timeline;
    QLabel* m_status;
    QLabel* m_counters;
    QLabel* m_caption;
    QLabel* m_result;
    QLabel* m_failover;
    QCheckBox* m_fencing;
    QCheckBox* m_background;
    QPlainTextEdit* m_notes;
    BottomFollower* m_notesFollower = nullptr;
    QPushButton* m_dismiss = nullptr;
    QPushButton* m_heal = nullptr;
    QByteArray m_pinned;
    QBoxLayout* m_controls = nullptr;
    QBoxLayout* m_layout = nullptr;
    QWidget* m_scenariosBox = nullptr;
    QSplitter* m_bottom = nullptr;
    QWidget* m_mastersBox;
    QWidget* m_clientsBox;
    QList<QLabel*> m_masterState;
    QList<QList<QPushButton*>> m_masterButtons; // kill, restart, pause, resume
    QList<QLabel*> m_clientState;
    QList<QPushButton*> m_clientPause;
    QList<QPushButton*> m_scenarioButtons;
};

} // namespace lockscope
