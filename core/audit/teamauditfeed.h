// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabase.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSet>

namespace lockscope {

class TeamListener;

// The team audit trail as it grows, for a window (issue #45): the newest records first, then each
// new one within a moment of its commit, told by PostgreSQL's LISTEN/NOTIFY (TeamAuditLog announces
// every record), never by polling the table. It talks to the database on the thread it lives on,
// which must not be the GUI thread: give it a thread of its own and call start() there.
class TeamAuditFeed final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TeamAuditFeed)

public:
    TeamAuditFeed(TeamDatabaseUrl url, QString password, QObject* parent = nullptr);
    ~TeamAuditFeed() override;

    // Connects, reads the newest records and listens; on a failure (a read, or a round trip every
    // TeamListener::retryMs) says so (problem) and tries again, picking up where it left off.
    void start();
    // Closes the connection (on this object's thread).
    void stop();

signals:
    // Records not sent before, oldest first: the audit log's JSON objects, each with its "writer".
    // `earlier`: the newest records as they were when the feed started, not new ones.
    void records(const QList<QJsonObject>& records, bool earlier);
    // Connected and listening, or why not (empty once it works again).
    void problem(const QString& message);

private:
    void fetchNew();

    TeamListener* m_listener;
    qint64 m_lastId = -1; // the newest row sent; -1 before the first read
    QSet<qint64> m_sent;  // the ids sent lately, below it (those may still come in out of order)
};

} // namespace lockscope
