// SPDX-License-Identifier: Apache-2.0
#include "record/historycsv.h"

#include "base/bytesdisplay.h"
#include "export/csvfield.h"
#include "record/historyjson.h"

namespace lockscope {

QByteArray historyCsv(const QByteArray& resource, const QList<Episode>& episodes)
{
    QString out = QStringLiteral("resource,token,owner,from,to,end\n");
    for (const Episode& e : episodes) {
        out += QStringList{csvField(escapeBytes(resource)),
                           csvField(escapeBytes(e.token)),
                           csvField(e.owner),
                           HistoryJson::time(e.startMs),
                           e.endMs < 0 ? QString() : HistoryJson::time(e.endMs),
                           episodeEndName(e.ended)}
                   .join(QLatin1Char(','));
        out += QLatin1Char('\n');
    }
    return out.toUtf8();
}

} // namespace lockscope
