#include "lockctl/ttlargument.h"

#include "locking/redlock.h"

namespace lockctl {

QCommandLineOption TtlArgument::option()
{
    return {QStringLiteral("ttl"), QStringLiteral("Lock time to live in milliseconds (1 to 2147483647)."),
            QStringLiteral("MS")};
}

std::optional<qint64> TtlArgument::parseWhole(const QString& name, const QString& text, qint64 min,
                                              qint64 max, QString* problem)
{
    bool digitsOnly = !text.isEmpty() && text.size() <= 19;
    for (const QChar c : text)
        digitsOnly = digitsOnly && c >= QLatin1Char('0') && c <= QLatin1Char('9');
    bool ok = false;
    const qint64 value = digitsOnly ? text.toLongLong(&ok) : 0;
    if (!ok || value < min || value > max) {
        if (problem)
            *problem = QStringLiteral("--%1 must be a whole number from %2 to %3, not '%4'")
                           .arg(name)
                           .arg(min)
                           .arg(max)
                           .arg(text);
        return std::nullopt;
    }
    return value;
}

std::optional<qint64> TtlArgument::parse(const QString& text, QString* problem)
{
    return parseWhole(QStringLiteral("ttl"), text, 1, lockscope::Redlock::maxTtlMs, problem);
}

} // namespace lockctl
