#include "lockprinter.h"

#include "base/bytesdisplay.h"
#include "texttable.h"
#include "topology/masterset.h"

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

QStringList LockPrinter::row(const LockView& view, const MasterSet&, qint64 nowMs)
{
    QString status = lockStatusName(view.status);
    if (view.atRisk)
        status += QStringLiteral(" (at risk)");
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
                : formatDuration(view.validityAt(nowMs)),
            view.owner.isEmpty() ? QStringLiteral("-") : view.owner,
            lockFormatName(view.format),
            token};
}

} // namespace lockctl
