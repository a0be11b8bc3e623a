// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/evidenceline.h"

#include "base/bytesdisplay.h"
#include "record/historyjson.h"

#include <QStringList>

namespace lockscope {

QString EvidenceLine::masterLabel(int master)
{
    return QStringLiteral("M%1").arg(master + 1);
}

QString EvidenceLine::mastersText(quint64 mask)
{
    QStringList names;
    for (int i = 0; i < 64; ++i)
        if (mask & (quint64(1) << i))
            names << masterLabel(i);
    return names.join(QLatin1Char(','));
}

QString EvidenceLine::of(const RecordEvent& e, int masters)
{
    QString text = QStringLiteral("%1 %2").arg(HistoryJson::time(e.timeMs), recordEventKindName(e.kind));
    if (e.isMasterEvent())
        return text + QLatin1Char(' ') + masterLabel(e.master) +
               (e.detail.isEmpty() ? QString() : QStringLiteral(": ") + e.detail);
    text += QLatin1Char(' ') + escapeBytes(e.token);
    if (e.holding > 0)
        text += QStringLiteral(" on %1 (%2 of %3)").arg(mastersText(e.holders)).arg(e.holding).arg(masters);
    if (e.ttlMs >= 0)
        text += QStringLiteral(", validity %1 ms").arg(e.ttlMs);
    // What the tracer saw says who did it and how (its detail: escaped when it was written).
    if (isTracedKind(e.kind))
        text += QStringLiteral(" on %1: %2").arg(masterLabel(e.master), e.detail);
    else if (e.kind == RecordEvent::Kind::FenceCounter) // the counter's key (escaped when written)
        text += QStringLiteral(" on %1 (%2)").arg(masterLabel(e.master), e.detail);
    return text;
}

} // namespace lockscope
