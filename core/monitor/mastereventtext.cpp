// SPDX-License-Identifier: Apache-2.0
#include "monitor/mastereventtext.h"

#include "base/bytesdisplay.h"

#include <QCoreApplication>
#include <QStringList>

namespace lockscope {

namespace {

QString words(const char* text, int n = -1)
{
    return QCoreApplication::translate("MasterEventText", text, nullptr, n);
}

QString listOrNone(const QStringList& items)
{
    return items.isEmpty() ? words("none") : items.join(QStringLiteral(", "));
}

} // namespace

QString MasterEventText::failoverDetected(const PrimaryChange& change, int atRisk)
{
    return words("%1 → %2: %n lock(s) at risk until the new primary is read", atRisk)
        .arg(change.oldPrimary.toString(), change.newPrimary.toString());
}

QString MasterEventText::lostLocks(const FailoverReport& report)
{
    QStringList lost;
    for (const QByteArray& r : report.lost)
        lost << escapeBytes(r);
    return listOrNone(lost);
}

QString MasterEventText::changedTokens(const FailoverReport& report)
{
    QStringList changed;
    for (const FailoverReport::TokenChange& c : report.changedToken)
        changed << words("%1 (%2 → %3)")
                       .arg(escapeBytes(c.resource), escapeBytes(c.before), escapeBytes(c.after));
    return listOrNone(changed);
}

QString MasterEventText::restarted()
{
    return words("run_id changed: locks it held may be lost");
}

QString MasterEventText::primaryRestarted(const NodeAddress& primary)
{
    return words("primary %1: %2").arg(primary.toString(), restarted());
}

} // namespace lockscope
