// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/safetyincident.h"
#include "session/feedthread.h"

#include <QByteArrayList>
#include <QObject>
#include <QPointer>

class QAction;
class QStatusBar;

namespace lockscope {

class CoreThread;
class HistoryView;
struct NotificationEvent;

// The window's flight recorder switch (docs/manual/flight-recorder.md): on by default, View > Record
// history turns it off (kept in the window's settings), `--no-record` turns it off for one run.
// The recorder itself runs on the core thread, on the core's monitor; this only says when, where
// to, and hands it the window's notifications.
class WindowRecording final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WindowRecording)

public:
    explicit WindowRecording(QObject* parent = nullptr);

    QAction* action() const { return m_action; }
    bool isRecording() const;
    // The recording the History view reads (the default one unless reviewing another): a file, or
    // a team database's URL (then with its password, or empty for libpq's own).
    QString path() const { return m_path; }
    QString password() const { return m_password; }
    bool isTeamDatabase() const;

    // `--no-record`: nothing is recorded in this run, whatever the setting says.
    void disableForThisRun();
    // Review of `path`: read it, never write it.
    void review(const QString& path, const QString& password = {});
    // Record into `path` instead of the user's recording (the demo's own, or a team database).
    // Before the window starts recording, as the launch options are applied: a recording already
    // under way goes on.
    void recordInto(const QString& path, const QString& password = {});
    // The History view reads this recording (and is told of a team database's commits); a team
    // database's problems are said in `status`.
    void showIn(HistoryView* view, QStatusBar* status);
    // A new core (a new set of masters): it records if the switch is on. Force-releases are read
    // from `auditLogPath` so that they carry their audit record's id.
    void attach(CoreThread* core, const QString& auditLogPath);
    // A notification the window raised goes into the recording too.
    void notified(const NotificationEvent& event);

    static QString settingsKey();

signals:
    void toggled(bool recording);
    // The core's watch of the recording found two holders at once (while recording).
    void incidentFound(const lockscope::SafetyIncident& incident);
    // review(): the recording `path` is shown instead of live masters.
    void reviewStarted(const QString& path);
    // A team database's recording: what other programs (and this window's recorder) committed,
    // told by the database (TeamRecordingFeed::committed), and why it cannot be followed now.
    void teamCommitted(const QByteArrayList& resources, bool masterEvents, bool all);
    void teamProblem(const QString& message);

private:
    void apply();
    // Follows the recording's commits when it is a team database's.
    void followTeam();

    QAction* m_action;
    QString m_path;
    QString m_password;
    FeedThread m_feed;
    QString m_auditLogPath;
    bool m_disabled = false;
    QPointer<CoreThread> m_core;
    QPointer<HistoryView> m_view;
};

} // namespace lockscope
