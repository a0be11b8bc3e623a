// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/auditrecord.h"
#include "base/filedescriptor.h"
#include "base/rediserror.h"

#include <QString>

namespace lockscope {

class TeamAuditLog;

// The append-only record of write attempts, one JSON line each (JSON Lines). Every line is written
// with a single write(2) on an O_APPEND descriptor, so concurrent lockctl processes never interleave
// inside a line, and fsync'd before append() returns: an audit trail that a crash can shorten is
// not one. The file is never truncated or rewritten.
//
// It says who changed which lock, so it is private: created 0600 in directories created 0700,
// opened with O_NOFOLLOW (a symbolic link planted in its place is refused), and an existing file
// that another user owns or that group or others can read or write is refused for writes unless
// `allowShared` (the user said so: --allow-shared-audit-log, "allowSharedAuditLog": true). The
// checks are PrivateFile's, shared with the flight recording.
class AuditLog
{
public:
    explicit AuditLog(QString path, bool allowShared = false);

    const QString& path() const { return m_path; }
    // Every record goes to the team's audit trail too (issue #45): check() then also asks whether
    // it can be written there, and append() fails when it could not. `team` outlives this log.
    void setTeam(TeamAuditLog* team) { m_team = team; }
    TeamAuditLog* team() const { return m_team; }
    bool allowsShared() const { return m_allowShared; }
    // Can we append? Checked before a write, so that an unwritable log refuses the action
    // instead of letting it happen unrecorded. Creates the file (0600) and its directories (0700).
    RedisError check() const;
    // Kind Io on failure; kind None on success. A record always starts on a line of its own, even
    // after an earlier append was cut short (a full disk): a torn line never swallows the next record.
    RedisError append(const AuditRecord& record) const;
    // Why the file's permissions are too open ("readable by group and others (mode 0644)"), or an
    // empty string; for a report even when allowShared lets writes go on.
    QString permissionProblem() const;

    // $XDG_STATE_HOME/lockscope/audit.jsonl, ~/.local/state/lockscope/audit.jsonl when it is unset
    // (the XDG base directories: an audit trail is state, not data; Qt 6.4 has no StateLocation).
    static QString defaultPath();
    // demo-audit.jsonl beside it: the demo's writes (on its throw-away masters) are not the user's.
    static QString demoPath();
    // Where earlier versions wrote it ($XDG_DATA_HOME/lockscope/audit.jsonl): the viewer still reads it.
    static QString legacyDefaultPath();

private:
    // An open descriptor ready for appending, after every check (PrivateFile); invalid with
    // `error` set otherwise.
    FileDescriptor open(RedisError* error) const;

    QString m_path;
    bool m_allowShared = false;
    TeamAuditLog* m_team = nullptr;
};

} // namespace lockscope
