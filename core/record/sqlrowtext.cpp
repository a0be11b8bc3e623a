// SPDX-License-Identifier: Apache-2.0
#include "record/sqlrowtext.h"

namespace lockscope {

void SqlRowText::bytes(const QByteArray& value)
{
    separate().append("decode('").append(value.toHex()).append("','hex')");
}

void SqlRowText::text(const QString& value)
{
    if (value.isEmpty()) {
        null();
        return;
    }
    const QByteArray utf8 = value.toUtf8();
    QByteArray& sql = separate();
    sql.append("E'");
    for (const char c : utf8) {
        if (c == '\\' || c == '\'')
            sql.append(c);
        if (c == '\0')
            sql.append("\\\\x00"); // as escapeText writes it
        else
            sql.append(c);
    }
    sql.append('\'');
}

} // namespace lockscope
