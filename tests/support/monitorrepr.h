// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayList>
#include <QByteArrayView>

#include <algorithm>
#include <array>
#include <utility>

namespace lockscope::test {

// One argument quoted as Redis's sdscatrepr quotes it in MONITOR's stream (what
// MonitorLineParser undoes): printable ASCII as it is, \" \\ \n \r \t \a \b, \xHH for the rest.
inline QByteArray monitorRepr(const QByteArray& arg)
{
    // A table, where the stream has a switch: the oracle should not share the product's mistakes.
    static const std::array<std::pair<char, QByteArrayView>, 7> escapes{{{'\\', "\\\\"},
                                                                         {'"', "\\\""},
                                                                         {'\n', "\\n"},
                                                                         {'\r', "\\r"},
                                                                         {'\t', "\\t"},
                                                                         {'\a', "\\a"},
                                                                         {'\b', "\\b"}}};
    QByteArray out = "\"";
    for (const char c : arg) {
        const auto escape =
            std::find_if(escapes.cbegin(), escapes.cend(), [c](const auto& e) { return e.first == c; });
        if (escape != escapes.cend())
            out.append(escape->second);
        else if (c >= 0x20 && c <= 0x7e)
            out += c;
        else
            out += "\\x" + QByteArray::number(uchar(c), 16).rightJustified(2, '0');
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
