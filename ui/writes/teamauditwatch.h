// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabaseurl.h"
#include "session/feedthread.h"

#include <QJsonObject>
#include <QList>
#include <QObject>

#include <optional>

namespace lockscope {

class TeamAuditFeed;

// The team database's audit trail for the window (issue #45): a TeamAuditFeed on a thread of its
// own (the GUI thread never waits for the database), its records kept here, newest last, for the
// audit log dialog, which shows a colleague's force-release within a second of its commit.
class TeamAuditWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TeamAuditWatch)

public:
    explicit TeamAuditWatch(QObject* parent = nullptr);
    ~TeamAuditWatch() override;

    // Follows `url`'s trail (from the newest records on); none stops following.
    void follow(const std::optional<TeamDatabaseUrl>& url, const QString& password);
    bool isFollowing() const { return m_feed.isRunning(); }
    // The database as a message names it (never with a password).
    const QString& name() const { return m_name; }
    const QList<QJsonObject>& records() const { return m_records; }
    // Why the trail cannot be read now; empty while it can.
    const QString& problem() const { return m_problem; }

signals:
    void changed();
    // Records committed since the window began to follow the trail (not the ones it found there).
    void arrived(const QList<QJsonObject>& records);

private:
    FeedThread m_feed;
    QString m_name;
    QString m_problem;
    QList<QJsonObject> m_records;
};

} // namespace lockscope
