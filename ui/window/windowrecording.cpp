// SPDX-License-Identifier: Apache-2.0
#include "window/windowrecording.h"

#include "diagnosis/notificationevaluator.h"
#include "history/historyview.h"
#include "record/recordingdatabase.h"
#include "record/teamrecordingfeed.h"
#include "session/corethread.h"

#include <QAction>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>

namespace lockscope {

WindowRecording::WindowRecording(QObject* parent)
    : QObject(parent), m_action(new QAction(tr("&Record history"), this)),
      m_path(RecordingDatabase::defaultPath()), m_feed(QStringLiteral("lockscope-team-recording"))
{
    m_action->setObjectName(QStringLiteral("recordHistory"));
    m_action->setCheckable(true);
    m_action->setChecked(QSettings().value(settingsKey(), true).toBool());
    recordInto(m_path);
    connect(m_action, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(settingsKey(), on);
        apply();
        emit toggled(isRecording());
    });
}

QString WindowRecording::settingsKey()
{
    return QStringLiteral("recording/enabled");
}

bool WindowRecording::isRecording() const
{
    return !m_disabled && m_action->isChecked();
}

void WindowRecording::disableForThisRun()
{
    m_disabled = true;
    const QSignalBlocker quiet(m_action);
    m_action->setChecked(false);
    m_action->setEnabled(false);
    m_action->setStatusTip(tr("Not recording: started with --no-record"));
    apply();
    emit toggled(false);
}

bool WindowRecording::isTeamDatabase() const
{
    return TeamRecordingFeed::isTeamDatabase(m_path);
}

void WindowRecording::recordInto(const QString& path, const QString& password)
{
    m_path = path;
    m_password = password;
    m_action->setStatusTip(tr("Keep every lock and master change in %1, for the History view and "
                              "`lockctl history`")
                               .arg(m_path));
    if (m_view)
        m_view->setRecording(m_path, m_password);
    followTeam();
}

void WindowRecording::showIn(HistoryView* view, QStatusBar* status)
{
    m_view = view;
    view->setRecording(m_path, m_password);
    connect(this, &WindowRecording::teamCommitted, view, &HistoryView::recordingCommitted);
    connect(this, &WindowRecording::teamProblem, status, [status](const QString& problem) {
        problem.isEmpty() ? status->clearMessage() : status->showMessage(problem);
    });
}

void WindowRecording::review(const QString& path, const QString& password)
{
    disableForThisRun();
    m_path = path;
    m_password = password;
    m_action->setStatusTip(tr("Not recording: reviewing %1").arg(path));
    followTeam();
    emit reviewStarted(path);
}

void WindowRecording::followTeam()
{
    m_feed.stop();
    auto* feed = TeamRecordingFeed::of(m_path, m_password).release();
    if (!feed)
        return;
    connect(feed, &TeamRecordingFeed::committed, this, &WindowRecording::teamCommitted);
    connect(feed, &TeamRecordingFeed::problem, this, &WindowRecording::teamProblem);
    m_feed.run(feed);
}

void WindowRecording::attach(CoreThread* core, const QString& auditLogPath)
{
    m_core = core;
    m_auditLogPath = auditLogPath;
    connect(core->service(), &CoreService::incidentFound, this, &WindowRecording::incidentFound);
    // On the next turn of the event loop: the launch options (--no-record, --db) that come right
    // after the window's construction decide first, so they never leave an empty session behind.
    QTimer::singleShot(0, this, [this, core = QPointer<CoreThread>(core)] {
        if (core && core == m_core)
            apply();
    });
}

void WindowRecording::apply()
{
    if (!m_core)
        return;
    if (!isRecording()) {
        m_core->call(&CoreService::stopRecording);
        return;
    }
    RecorderOptions options;
    options.path = m_path;
    options.auditLogPath = m_auditLogPath;
    options.databasePassword = m_password;
    m_core->call(&CoreService::startRecording, options); // does nothing when it records already
}

void WindowRecording::notified(const NotificationEvent& event)
{
    if (!m_core || !isRecording())
        return;
    RecordEvent e;
    e.kind = RecordEvent::Kind::Notified;
    e.resource = event.resource;
    e.master = event.master;
    e.detail = event.body.isEmpty() ? event.title : event.title + QStringLiteral(": ") + event.body;
    m_core->call(&CoreService::noteRecording, e);
}

} // namespace lockscope
