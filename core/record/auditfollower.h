// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"

#include <QString>

namespace lockscope {

// Follows the audit log (JSON Lines, append-only) from where it was when the recording began, and
// turns each force-release that deleted something into a RecordEvent with the record's id.
//
// Why the audit log and not ForceRelease's outcome: the force-release that matters is usually
// another process's (`lockctl force-release` while `lockctl record` or the window records), and the
// audit log is the one place every writer on this host already reports to, with the id, the user
// and the token it saw. Reading it keeps record/ independent of locking/ and covers all writers.
class AuditFollower
{
public:
    explicit AuditFollower(QString path);

    // Start at the current end: records written before the recording began are not its story.
    void skipToEnd();
    // The force-releases appended since the last call (only complete lines are read; a line being
    // written is read next time). A log that shrank (replaced) is read again from its start.
    RecordEventList poll();

private:
    QString m_path;
    qint64 m_offset = 0;
};

} // namespace lockscope
