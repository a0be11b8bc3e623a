// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <QString>

namespace lockscope::test {

// Whether a URL parser's error for `text` gives away any of its user-info: the text between the
// first "://" and the last '@' after it (unix:// URLs have none). Shared by the unit tests and the
// fuzz target. Checked by difference rather than by searching the message, since a short password
// ("port", "a") is found in any message: the user-info's letters and digits are replaced by others
// of the same kind (hex digits stay hex digits, so percent-escapes keep their meaning) and the
// input is parsed again. An error that quotes no user-info reads the same both times.
inline QString disguisedUserInfo(const QString& text)
{
    const qsizetype schemeEnd = text.indexOf(QLatin1String("://"));
    if (schemeEnd < 0 ||
        text.left(schemeEnd).trimmed().compare(QLatin1String("unix"), Qt::CaseInsensitive) == 0)
        return text;
    const qsizetype at = text.lastIndexOf(QLatin1Char('@'));
    if (at <= schemeEnd + 3)
        return text;
    auto rotate = [](ushort u, ushort first, ushort count, ushort by) {
        return ushort(first + (u - first + by) % count);
    };
    QString out = text;
    for (qsizetype i = schemeEnd + 3; i < at; ++i) {
        const ushort u = out[i].unicode();
        ushort v = u;
        if (u >= '0' && u <= '9')
            v = rotate(u, '0', 10, 5);
        else if (u >= 'a' && u <= 'f')
            v = rotate(u, 'a', 6, 3);
        else if (u >= 'A' && u <= 'F')
            v = rotate(u, 'A', 6, 3);
        else if (u >= 'g' && u <= 'z')
            v = rotate(u, 'g', 20, 10);
        else if (u >= 'G' && u <= 'Z')
            v = rotate(u, 'G', 20, 10);
        out[i] = QChar(v);
    }
    return out;
}

// Empty when the error (if any) is the same with the user-info disguised; otherwise both messages.
template <class Parse> QString userInfoLeak(const QString& text, Parse parse)
{
    const QString disguised = disguisedUserInfo(text);
    if (disguised == text)
        return {};
    const auto first = parse(text);
    const auto second = parse(disguised);
    if (first.ok() && second.ok())
        return {};
    const QString a = first.ok() ? QStringLiteral("(parsed)") : first.error().message;
    const QString b = second.ok() ? QStringLiteral("(parsed)") : second.error().message;
    return a == b ? QString() : a + QStringLiteral(" <> ") + b;
}

} // namespace lockscope::test
