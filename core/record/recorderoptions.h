// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

// Where and how long the flight recorder keeps its story (docs/manual/flight-recorder.md).
struct RecorderOptions
{
    // The SQLite file, or a team's PostgreSQL database (postgresql://USER@HOST[:PORT]/DBNAME);
    // empty: RecordingDatabase::defaultPath().
    QString path;
    // The PostgreSQL password (--team-db-password-env); empty: libpq's (PGPASSWORD, ~/.pgpass).
    QString databasePassword;
    // It holds every holder's token: a file group or others can read or write, or one another user
    // owns, is refused unless the user allows it (--allow-shared-recording), as the audit log's.
    bool allowShared = false;
    QString auditLogPath; // force-releases are read from it (with their record's id); empty: none
    // Retention: events older than maxAgeMs go, and the oldest go while the file is over maxBytes.
    // 0 turns a limit off.
    qint64 maxAgeMs = 30LL * 24 * 3600 * 1000; // 30 days
    qint64 maxBytes = 512LL * 1024 * 1024;     // 512 MiB
    // Observed events reach the file within about this (crash safety). 400, not 200: each commit
    // costs the writer its transaction, a tenth of its time at 5k changes/s, and a kill still loses
    // less than a second (tst_flightrecorder).
    int flushIntervalMs = 400;
    int pruneIntervalMs = 60000;
    int auditPollMs = 500;
};

} // namespace lockscope
