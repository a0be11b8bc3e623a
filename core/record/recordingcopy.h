// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabaseurl.h"
#include "base/result.h"

#include <QString>

namespace lockscope {

// `lockctl db copy` (issue #45): a recording file and an audit log file into a team's PostgreSQL
// database, so that the team reads one history. Run twice, nothing doubles: each session copied
// names where it came from (`sessions.origin`: its recorder, start and masters), and a session found
// there already is skipped with its events; an audit record found in its writer's chain likewise.
//
// The recording goes in one transaction (all of it, or nothing); it takes event ids as a live
// recorder does, so recorders writing the same database wait until it commits. Each audit record
// is its own transaction, added to its writer's chain as the writer would have.
class RecordingCopy
{
public:
    struct Report
    {
        int sessions = 0;      // copied
        int sessionsThere = 0; // skipped: copied before
        qint64 events = 0;     // copied
        int auditRecords = 0;
        int auditThere = 0;
        int auditUnreadable = 0; // torn lines or records without a time, action or resource
    };

    // `auditLog` empty or missing: the recording alone. `recording` must be a file.
    static Result<Report> copy(const QString& recording, const QString& auditLog, const TeamDatabaseUrl& to,
                               const QString& password);

private:
    static RedisError copyRecording(const QString& recording, const TeamDatabaseUrl& to,
                                    const QString& password, Report& report);
    static RedisError copyAuditLog(const QString& auditLog, const TeamDatabaseUrl& to,
                                   const QString& password, Report& report);
};

} // namespace lockscope
