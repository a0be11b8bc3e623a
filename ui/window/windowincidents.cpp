// SPDX-License-Identifier: Apache-2.0
#include "window/windowincidents.h"

#include "detail/lockdetailpane.h"
#include "diagnosis/incidentwatch.h"
#include "incidents/incidentsdock.h"
#include "incidents/incidentsmodel.h"
#include "notifications/lockdiagnosiswatch.h"
#include "window/windowrecording.h"
#include "window/windowstatusbar.h"

#include <QDateTime>
#include <QMainWindow>
#include <QThread>

namespace lockscope {

WindowIncidents::WindowIncidents(const Parts& parts)
    : QObject(parts.window), m(parts), m_model(new IncidentsModel(this)),
      m_dock(new IncidentsDock(m_model, parts.window))
{
    m.window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    if (m.tabbedWith)
        m.window->tabifyDockWidget(m.tabbedWith, m_dock);
    if (!m.recording->isRecording())
        m_dock->setEmptyText(tr("Two holders at once are found in the recording: turn on View > Record "
                                "history to watch for them."));
    connect(m.recording, &WindowRecording::toggled, this, [this](bool on) {
        m_dock->setEmptyText(on ? tr("No lock has let two holders in at once since recording began.")
                                : tr("Two holders at once are found in the recording: turn on View > Record "
                                     "history to watch for them."));
    });
    connect(m.recording, &WindowRecording::incidentFound, this, &WindowIncidents::add);
    connect(m.recording, &WindowRecording::reviewStarted, this, &WindowIncidents::review);
    connect(m_dock, &IncidentsDock::lockChosen, this, &WindowIncidents::lockChosen);
    if (m.pane)
        connect(m.pane, &LockDetailPane::viewChanged, this, &WindowIncidents::showIn);
    connect(m.statusBar, &WindowStatusBar::incidentsClicked, this, [this] {
        m_dock->show();
        m_dock->raise();
    });
}

WindowIncidents::~WindowIncidents()
{
    stopReview();
}

void WindowIncidents::add(const SafetyIncident& incident)
{
    if (!m_model->add(incident))
        return;
    showCounts();
    showIn(incident.resource);
    if (m.diagnosis)
        m.diagnosis->raiseIncident(incident); // the double-grant rule decides
}

void WindowIncidents::review(const QString& path)
{
    stopReview();
    m_model->clear();
    m_dock->setEmptyText(tr("Looking for two holders at once in %1…").arg(path));
    m_reviewThread = std::make_unique<QThread>();
    m_reviewThread->setObjectName(QStringLiteral("incident review"));
    auto* watch = new IncidentWatch(path, m.recording->password());
    watch->moveToThread(m_reviewThread.get());
    // A team database goes on growing while it is reviewed: what others commit is judged too.
    connect(m.recording, &WindowRecording::teamCommitted, watch,
            [watch](const QByteArrayList& resources, bool, bool) { watch->recheck(resources); });
    connect(m_reviewThread.get(), &QThread::finished, watch, &QObject::deleteLater);
    // Shown in the list; no notification for what a file from the past holds.
    connect(watch, &IncidentWatch::found, this, [this](const SafetyIncident& incident) {
        if (m_model->add(incident))
            showCounts();
    });
    connect(watch, &IncidentWatch::judgedAll, this, [this, path](int resources) {
        m_dock->setEmptyText(
            tr("None of the %n lock(s) in %1 let two holders in at once.", nullptr, resources).arg(path));
        if (m_model->count(SafetyIncident::Confidence::Probable) > 0) {
            m_dock->show();
            m_dock->raise();
        }
    });
    m_reviewThread->start(QThread::LowPriority);
    QMetaObject::invokeMethod(watch, &IncidentWatch::judgeAll, Qt::QueuedConnection);
}

void WindowIncidents::showCounts()
{
    m.statusBar->setIncidents(m_model->count(SafetyIncident::Confidence::Probable),
                              m_model->count(SafetyIncident::Confidence::Possible));
}

void WindowIncidents::showIn(const QByteArray& resource)
{
    if (!m.pane || !m.pane->view() || m.pane->view()->resource != resource)
        return;
    QStringList lines;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const SafetyIncident& i = m_model->incidentAt(row);
        if (i.resource == resource)
            lines << tr("Two holders at once (%1, %2): %3 from %4 to %5; %6")
                         .arg(safetyConfidenceName(i.confidence), safetyIncidentKindName(i.kind),
                              safetyIncidentHolders(i),
                              QDateTime::fromMSecsSinceEpoch(i.fromMs).toString(
                                  QStringLiteral("HH:mm:ss.zzz")),
                              QDateTime::fromMSecsSinceEpoch(i.toMs).toString(QStringLiteral("HH:mm:ss.zzz")),
                              i.cause);
    }
    m.pane->setIncidents(resource, lines);
}

void WindowIncidents::stopReview()
{
    if (!m_reviewThread)
        return;
    m_reviewThread->requestInterruption();
    m_reviewThread->quit();
    m_reviewThread->wait();
    m_reviewThread.reset();
}

} // namespace lockscope
