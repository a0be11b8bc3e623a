// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabaseurl.h"

#include <QByteArrayList>
#include <QObject>

#include <memory>

namespace lockscope {

class TeamDatabase;
class TeamListener;

// What other programs commit to the recordings in a team database, for a window that shows them
// (issue #45): which resources have new events, within a moment of each commit, told by
// PostgreSQL's LISTEN/NOTIFY (TeamEventTable announces every transaction), never by polling the
// tables. Ids follow commit order there, so "events after the last one told" misses none.
// It talks to the database on the thread it lives on, which must not be the GUI thread.
class TeamRecordingFeed final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TeamRecordingFeed)

public:
    // Resources named per signal at most; past it, `all` says to read everything again.
    static constexpr int maxResourcesTold = 10000;

    TeamRecordingFeed(TeamDatabaseUrl url, QString password, QObject* parent = nullptr);
    // A feed of `recording` when it names a team database (null when it names a file).
    static std::unique_ptr<TeamRecordingFeed> of(const QString& recording, const QString& password);
    static bool isTeamDatabase(const QString& recording);
    ~TeamRecordingFeed() override;

    // Connects and listens (on this object's thread); on a failure says so (problem) and tries
    // again every TeamListener::retryMs.
    void start();
    void stop();

signals:
    // New events since the last signal: the resources they are about, and whether masters' own
    // events (restarts, failovers) came too, or a recorder's session began or ended. `all`: anything may have
    // changed (listening again after a connection was lost, or too many to name): read again what is shown.
    void committed(const QByteArrayList& resources, bool masterEvents, bool all);
    // Why it does not listen now (empty once it does again).
    void problem(const QString& message);

private:
    void fetchNew(bool all);
    // The newest event's id into `id`; false (and the listener told) when it cannot be read.
    bool readNewestId(TeamDatabase& db, qint64* id);

    TeamListener* m_listener;
    qint64 m_lastId = -1; // the newest event told; -1 before the first read
};

} // namespace lockscope
