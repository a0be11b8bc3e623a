// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabaseurl.h"

#include <QJsonObject>
#include <QList>
#include <QObject>

#include <optional>

class QTimer;
class QWidget;

namespace lockscope {

class TeamAuditWatch;

// The window's eye on the audit log: whether it can be appended to now (a local file, opened as the
// core does before every write: no socket involved), a look again every 5 s while it cannot, and
// the box that says a write went through without its audit line.
class AuditWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AuditWatch)

public:
    explicit AuditWatch(QWidget* window);

    // Looks now; while the log cannot be written, `recheckDue` follows in 5 s (one pending look at
    // a time, however often asked).
    void check(const QString& path, bool allowShared);
    // Why the audit log cannot be appended to, or empty.
    QString problem() const { return m_problem; }
    // The team database's trail (--team-db), for the audit log dialog; none stops following.
    TeamAuditWatch* team() const { return m_team; }
    void followTeam(const std::optional<TeamDatabaseUrl>& url, const QString& password);
    // Not modal: the core keeps running, and further losses add to the same box's log lines.
    void showLost(const QString& path, const QString& message);

signals:
    void recheckDue();
    // The team's new audit records (TeamAuditWatch::arrived).
    void teamArrived(const QList<QJsonObject>& records);

private:
    QWidget* m_window;
    TeamAuditWatch* m_team;
    QTimer* m_recheck;
    QString m_problem;
};

} // namespace lockscope
