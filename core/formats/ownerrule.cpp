// SPDX-License-Identifier: Apache-2.0
#include "formats/ownerrule.h"

#include "base/bytesdisplay.h"

namespace lockscope {

QString OwnerRule::ownerOf(const QByteArray& key, const QByteArray& token) const
{
    if (!pattern.isValid())
        return {};
    if (keyGlob != QLatin1String("*")) {
        const QRegularExpression glob(QRegularExpression::wildcardToRegularExpression(
                                          keyGlob, QRegularExpression::UnanchoredWildcardConversion),
                                      QRegularExpression::DotMatchesEverythingOption);
        const QRegularExpression anchored(QRegularExpression::anchoredPattern(glob.pattern()),
                                          QRegularExpression::DotMatchesEverythingOption);
        if (!anchored.match(QString::fromUtf8(key)).hasMatch())
            return {};
    }
    const QRegularExpressionMatch m = pattern.match(QString::fromUtf8(token));
    if (!m.hasMatch())
        return {};
    // The token is the writer's bytes: what the rule cuts out of it is shown escaped, like the token.
    if (pattern.namedCaptureGroups().contains(QStringLiteral("owner")))
        return escapeBytes(m.captured(QStringLiteral("owner")).toUtf8());
    return escapeBytes((pattern.captureCount() > 0 ? m.captured(1) : m.captured(0)).toUtf8());
}

} // namespace lockscope
