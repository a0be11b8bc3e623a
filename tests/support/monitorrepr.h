// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayList>

namespace lockscope::test {

// One argument quoted as Redis's sdscatrepr quotes it in MONITOR's stream (what
// MonitorLineParser undoes): printable ASCII as it is, \" \\ \n \r \t \a \b, \xHH for the rest.
inline QByteArray monitorRepr(const QByteArray& arg)
{
    QByteArray out = "\"";
    for (const char c : arg) {
        switch (c) {
        case '\\':
            out += "\\\\";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\a':
            out += "\\a";
            break;
        case '\b':
            out += "\\b";
            break;
        default:
            if (c >= 0x20 && c <= 0x7e)
                out += c;
            else
                out += "\\x" + QByteArray::number(uchar(c), 16).rightJustified(2, '0');
        }
    }
    return out + '"';
}

// A whole MONITOR line as the server writes it (without the leading '+').
inline QByteArray monitorLine(qint64 seconds, int micros, int db, const QByteArray& client,
                              const QByteArrayList& args)
{
    QByteArray out = QByteArray::number(seconds) + '.' + QByteArray::number(micros).rightJustified(6, '0') +
                     " [" + QByteArray::number(db) + ' ' + client + ']';
    for (const QByteArray& a : args)
        out += ' ' + monitorRepr(a);
    return out;
}

} // namespace lockscope::test
