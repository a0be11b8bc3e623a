// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/auditrecord.h"
#include "base/rediserror.h"

namespace lockscope {

class AuditLog;

// The rule every write goes through, whichever front end asks (the window, lockctl, later ones):
// before any master is touched, it is refused in read-only mode, and refused when the audit log
// cannot be appended to (a write that cannot be recorded does not happen); afterwards it is
// recorded, and a record that could not be written is a typed failure the front end must show
// loudly, since the write itself went through.
class WriteGate
{
public:
    WriteGate() = default;
    // `audit` may be null: writes are then not recorded (a library user, the demo's simulated
    // clients). It must outlive the gate.
    WriteGate(bool readOnly, const AuditLog* audit) : m_readOnly(readOnly), m_audit(audit) {}

    bool isReadOnly() const { return m_readOnly; }
    const AuditLog* audit() const { return m_audit; }

    // None: go ahead. ReadOnlyMode in read-only mode; Io when the audit log cannot be appended to.
    // `action` names the write for the message ("acquire", "enable keyspace events").
    RedisError admit(const QString& action) const;
    // Appends the record; None when it was written or there is no audit log, Io otherwise.
    RedisError record(const AuditRecord& record) const;

private:
    bool m_readOnly = false;
    const AuditLog* m_audit = nullptr;
};

} // namespace lockscope
