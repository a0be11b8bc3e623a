#include "lockctl/leaseargument.h"

#include "lockctl/bytesargument.h"

namespace lockctl {

std::optional<lockscope::RedlockLease> LeaseArgument::parse(const QString& resource, const QString& token,
                                                            QString* problem)
{
    const std::optional<QByteArray> resourceBytes =
        BytesArgument::parse(resource, QStringLiteral("RESOURCE"), problem);
    if (!resourceBytes)
        return std::nullopt;
    const std::optional<QByteArray> tokenBytes =
        BytesArgument::parse(token, QStringLiteral("--token"), problem);
    if (!tokenBytes)
        return std::nullopt;
    lockscope::RedlockLease lease;
    lease.resource = *resourceBytes;
    lease.token = *tokenBytes;
    return lease;
}

} // namespace lockctl
