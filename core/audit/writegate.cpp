// SPDX-License-Identifier: Apache-2.0
#include "audit/writegate.h"

#include "audit/auditlog.h"

namespace lockscope {

RedisError WriteGate::admit(const QString& action) const
{
    if (m_readOnly)
        return {ErrorKind::ReadOnlyMode, QString(), QStringLiteral("read-only mode: %1 refused").arg(action)};
    if (m_audit)
        if (const RedisError error = m_audit->check(); error.isError())
            return {ErrorKind::Io, QString(),
                    QStringLiteral("%1 refused, nothing was sent: it could not be recorded (%2)")
                        .arg(action, error.message)};
    return {};
}

RedisError WriteGate::record(const AuditRecord& record) const
{
    if (!m_audit)
        return {};
    return m_audit->append(record);
}

} // namespace lockscope
