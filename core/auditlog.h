#pragma once

#include "auditrecord.h"
#include "rediserror.h"

#include <QString>

namespace lockscope {

// The append-only record of write attempts, one JSON line each (JSON Lines). Every line is written
// with a single write(2) on an O_APPEND descriptor, so concurrent lockctl processes never interleave
// inside a line, and fsync'd before append() returns: an audit trail that a crash can shorten is
// not one. The file is never truncated or rewritten.
class AuditLog
{
public:
    explicit AuditLog(QString path);

    const QString& path() const { return m_path; }
    // Can we append? Checked before a write, so that an unwritable log refuses the action
    // instead of letting it happen unrecorded. Creates the file (0600) and its directory.
    RedisError check() const;
    // Kind Io on failure; kind None on success.
    RedisError append(const AuditRecord& record) const;

private:
    QString m_path;
};

} // namespace lockscope
