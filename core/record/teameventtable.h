// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabase.h"
#include "record/recordevent.h"

#include <QHash>
#include <QList>

namespace lockscope {

// The events of recordings in a team's PostgreSQL database, as writers add them
// (PostgresRecordingWriter live, RecordingCopy from a file), inside the caller's transaction.
//
// Several writers on several hosts add events at once: each takes its batch's ids under a
// transaction-scoped advisory lock held until it commits, so ids follow commit order and a reader
// going by id (RecordingReader::forEachEvent) never skips an event committed after it read.
class TeamEventTable
{
    Q_DISABLE_COPY_MOVE(TeamEventTable)

public:
    // The channel each transaction that adds events is announced on (LISTEN/NOTIFY).
    static constexpr char notificationChannel[] = "lockscope_recording";

    explicit TeamEventTable(TeamDatabase& db) : m_db(db) {}

    // Ids for `count` events; the first in `first`. The server's error, or empty.
    QString takeIds(qsizetype count, qint64* first);
    // Inserts `events` as rows first, first + 1, …, event i of session sessions[i] (or sessions[0]
    // for all when it holds one). `previous` (optional) gets each event's resource's event before it,
    // whoever wrote that (0: none; a master event has none).
    QString insert(const RecordEventList& events, qint64 first, const QList<qint64>& sessions,
                   QList<qint64>* previous = nullptr);
    // Tells the windows on the database that the recordings changed (in a transaction: when it
    // commits). The server's error, or empty.
    static QString announce(QSqlDatabase& db);
    // After the transaction: what this writer knows holds (committed), or is read again (not).
    void finished(bool committed);

private:
    // Gives the batch's resources met for the first time their ids (made when new), and reads
    // their latest events.
    QString learnResources(const RecordEventList& events);
    QString learnLatest(const RecordEventList& events);
    QString insertRows(const RecordEventList& events, qsizetype from, qsizetype rows, qint64 first,
                       const QList<qint64>& sessions, QList<qint64>* previous);

    TeamDatabase& m_db;
    QHash<QByteArray, qint64> m_resourceIds;
    // By resource id: its latest event, valid while nobody else wrote since m_lastId.
    QHash<qint64, qint64> m_lastEvent;
    qint64 m_lastId = -1;      // the last event id this writer committed
    qint64 m_pendingLast = -1; // the last id of the transaction going on
};

} // namespace lockscope
