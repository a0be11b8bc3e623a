// SPDX-License-Identifier: Apache-2.0
#include "lockctl/lockprinter.h"

#include "base/bytesdisplay.h"
#include "base/durationformat.h"
#include "lockctl/terminalcolor.h"

using namespace lockscope;

namespace lockctl {

QStringList LockPrinter::header()
{
    return {QStringLiteral("RESOURCE"), QStringLiteral("STATUS"),   QStringLiteral("QUORUM"),
            QStringLiteral("MASTERS"),  QStringLiteral("VALIDITY"), QStringLiteral("OWNER"),
            QStringLiteral("FORMAT"),   QStringLiteral("TOKEN")};
}

QString LockPrinter::masterDots(const LockView& view)
{
    QString dots;
    for (const MasterObservation& m : view.observations) {
        if (m.error().isError())
            dots += QLatin1Char('?');
        else if (!m.present())
            dots += QChar(0x25CB);
        else if (m.lock().token == view.token)
            dots += QChar(0x25CF);
        else
            dots += QChar(0x25D0);
    }
    return dots;
}

namespace {

const QString atRiskSuffix = QStringLiteral(" (at risk)");

// SGR colours near the window's status hues (StatusStyle): 130 green, 38 amber, 290 magenta, 2 red.
const char* statusSgr(LockStatus status)
{
    switch (status) {
    case LockStatus::Held:
        return "32";
    case LockStatus::Partial:
        return "33";
    case LockStatus::Contested:
        return "35";
    case LockStatus::Stuck:
        return "31";
    case LockStatus::Unknown:
        break;
    }
    return "90";
}

} // namespace

QString LockPrinter::paintedStatus(const LockView& view, const TerminalColor& color)
{
    QString status = color.paint(lockStatusName(view.status), statusSgr(view.status));
    if (view.atRisk)
        status += color.paint(atRiskSuffix, "1;31");
    return status;
}

QStringList LockPrinter::row(const LockView& view, qint64 nowMs)
{
    const qint64 validity = view.validityAt(nowMs);
    QString status = lockStatusName(view.status);
    if (view.atRisk)
        status += atRiskSuffix;
    QString token = escapeBytes(view.token);
    if (token.size() > 48)
        token = token.left(45) + QStringLiteral("...");
    QString resource = escapeBytes(view.resource);
    if (resource.size() > 80)
        resource = resource.left(77) + QStringLiteral("...");
    return {resource,
            status,
            QStringLiteral("%1/%2 (need %3)").arg(view.holding).arg(view.total).arg(view.needed),
            masterDots(view),
            view.status == LockStatus::Stuck && view.format == LockFormat::LegacyTimestamp
                ? QStringLiteral("expired") // its timestamp has passed; OWNER says when
            : validity < 0 ? QStringLiteral("no expiry")
                           : formatDuration(validity, DurationStyle::Compact),
            view.owner.isEmpty() ? QStringLiteral("-") : view.owner,
            lockFormatName(view.format),
            token};
}

} // namespace lockctl
