#include "ownerrule.h"

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
    if (pattern.namedCaptureGroups().contains(QStringLiteral("owner")))
        return m.captured(QStringLiteral("owner"));
    return pattern.captureCount() > 0 ? m.captured(1) : m.captured(0);
}

} // namespace lockscope
