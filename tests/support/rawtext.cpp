// SPDX-License-Identifier: Apache-2.0
#include "support/rawtext.h"

#include "base/bytesdisplay.h"

#include <QByteArrayList>

namespace lockscope::test {

QString rawTextIn(const QByteArray& output)
{
    // The exact bytes the issue names first, so that a failure says plainly which one got through.
    static const QByteArray named[] = {QByteArray("\x1b"), QByteArray("\r"), QByteArray("\x07"),
                                       QByteArray(1, '\0'), QByteArray("\xe2\x80\xae")};
    for (const QByteArray& raw : named)
        if (const qsizetype at = output.indexOf(raw); at >= 0)
            return QStringLiteral("raw %1 at byte %2 of: %3")
                .arg(escapeBytes(raw))
                .arg(at)
                .arg(escapeBytes(output.left(4000)));
    // Then everything else: a line is clean when escaping it changes nothing but its backslashes.
    for (const QByteArray& line : output.split('\n')) {
        QString plain = QString::fromUtf8(line);
        plain.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
        const QString escaped = escapeBytes(line);
        if (escaped != plain)
            return QStringLiteral("a character that does not show as itself in: %1").arg(escaped);
    }
    return {};
}

QString rawTextIn(const QString& shown)
{
    return rawTextIn(shown.toUtf8());
}

} // namespace lockscope::test
