// SPDX-License-Identifier: Apache-2.0
#include "lockctl/arguments.h"

#include "base/bytesdisplay.h"
#include "locking/redlock.h"
#include "record/recordingdatabase.h"

#include <QDateTime>
#include <QRegularExpression>

namespace lockctl {

std::optional<QByteArray> BytesArgument::parse(const QString& text, const QString& what, QString* problem)
{
    const lockscope::Result<QByteArray> bytes = lockscope::unescapeBytes(text);
    if (!bytes) {
        *problem = QStringLiteral("%1: %2").arg(what, bytes.error().message);
        return std::nullopt;
    }
    if (bytes->isEmpty()) {
        *problem = QStringLiteral("%1 must not be empty").arg(what);
        return std::nullopt;
    }
    return *bytes;
}

std::optional<lockscope::RedlockLease> LeaseArgument::parse(const QString& resource, const QString& token,
                                                            QString* problem)
{
    const std::optional<QByteArray> resourceBytes =
        BytesArgument::parse(resource, QStringLiteral("RESOURCE"), problem);
    if (!resourceBytes)
        return std::nullopt;
    const std::optional<QByteArray> tokenBytes =
        BytesArgument::parse(token, QStringLiteral("--token"), problem);
    if (!tokenBytes)
        return std::nullopt;
    lockscope::RedlockLease lease;
    lease.resource = *resourceBytes;
    lease.token = *tokenBytes;
    return lease;
}

std::optional<qint64> NumberArgument::parse(const QString& name, const QString& text, qint64 min, qint64 max,
                                            QString* problem)
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

QCommandLineOption TtlArgument::option()
{
    return {QStringLiteral("ttl"), QStringLiteral("Lock time to live in milliseconds (1 to 2147483647)."),
            QStringLiteral("MS")};
}

std::optional<qint64> TtlArgument::parse(const QString& text, QString* problem)
{
    return NumberArgument::parse(QStringLiteral("ttl"), text, 1, lockscope::Redlock::maxTtlMs, problem);
}

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

std::optional<qint64> DurationArgument::since(const QCommandLineParser& parser, QString* problem)
{
    if (!parser.isSet(QStringLiteral("since")))
        return -1;
    const std::optional<qint64> span =
        parse(QStringLiteral("--since"), parser.value(QStringLiteral("since")), problem);
    if (!span)
        return std::nullopt;
    return QDateTime::currentMSecsSinceEpoch() - *span;
}

QCommandLineOption RecordingArgument::option()
{
    return {QStringLiteral("db"),
            QStringLiteral(
                "The recording to read or write (default $XDG_STATE_HOME/lockscope/recording.sqlite)."),
            QStringLiteral("FILE")};
}

QString RecordingArgument::path(const QCommandLineParser& parser)
{
    return parser.isSet(QStringLiteral("db")) ? parser.value(QStringLiteral("db"))
                                              : lockscope::RecordingDatabase::defaultPath();
}

QCommandLineOption RecordingArgument::allowSharedOption()
{
    return {QStringLiteral("allow-shared-recording"),
            QStringLiteral("Record into a file that group or others may read or write, or that another user "
                           "owns (refused by default: it holds every holder's token).")};
}

bool RecordingArgument::allowShared(const QCommandLineParser& parser)
{
    return parser.isSet(QStringLiteral("allow-shared-recording"));
}

} // namespace lockctl
