#include "lockctl/bytesargument.h"

#include "base/bytesdisplay.h"

namespace lockctl {

std::optional<QByteArray> BytesArgument::parse(const QString& text, const QString& what, QString* problem)
{
    const lockscope::Result<QByteArray> bytes = lockscope::unescapeBytes(text);
    if (!bytes) {
        *problem = QStringLiteral("%1: %2").arg(what, bytes.error().message);
        return std::nullopt;
    }
    if (bytes->isEmpty()) {
        *problem = QStringLiteral("%1 must not be empty").arg(what);
        return std::nullopt;
    }
    return *bytes;
}

} // namespace lockctl
