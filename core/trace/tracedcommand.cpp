// SPDX-License-Identifier: Apache-2.0
#include "trace/tracedcommand.h"

#include "base/bytesdisplay.h"

namespace lockscope {

QString TraceClient::display() const
{
    QString out = escapeBytes(address);
    QStringList about;
    if (!name.isEmpty())
        about << escapeBytes(name);
    if (!libraryName.isEmpty())
        about << QString(escapeBytes(libraryName) + QLatin1Char(' ') + escapeBytes(libraryVersion)).trimmed();
    if (!about.isEmpty())
        out += QStringLiteral(" (") + about.join(QStringLiteral(", ")) + QLatin1Char(')');
    return out;
}

} // namespace lockscope
