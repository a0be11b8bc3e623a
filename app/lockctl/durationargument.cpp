#include "lockctl/durationargument.h"

#include <QRegularExpression>

namespace lockctl {

std::optional<qint64> DurationArgument::parse(const QString& what, const QString& text, QString* problem)
{
    static const QRegularExpression form(QStringLiteral("^([0-9]{1,9})(ms|s|m|h|d)$"));
    const QRegularExpressionMatch m = form.match(text);
    if (!m.hasMatch()) {
        *problem = QStringLiteral("%1 takes a duration such as 90s, 15m, 2h or 7d (ms, s, m, h, d), not '%2'")
                       .arg(what, text);
        return std::nullopt;
    }
    const qint64 n = m.captured(1).toLongLong();
    const QString unit = m.captured(2);
    const qint64 scale = unit == QLatin1String("ms")  ? 1
                         : unit == QLatin1String("s") ? 1000
                         : unit == QLatin1String("m") ? 60 * 1000
                         : unit == QLatin1String("h") ? 3600 * 1000
                                                      : 24 * 3600 * 1000;
    return n * scale;
}

} // namespace lockctl
