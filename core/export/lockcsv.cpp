// SPDX-License-Identifier: Apache-2.0
#include "export/lockcsv.h"

#include "base/bytesdisplay.h"
#include "export/csvfield.h"

#include <QStringList>

namespace lockscope {

QString LockCsv::header()
{
    return QStringLiteral("resource,status,holding,needed,total,owner,format,token,validityMs,atRisk");
}

QString LockCsv::row(const LockView& view, qint64 nowMs)
{
    return QStringList{csvField(escapeBytes(view.resource)),
                       lockStatusName(view.status),
                       QString::number(view.holding),
                       QString::number(view.needed),
                       QString::number(view.total),
                       csvField(view.owner),
                       lockFormatName(view.format),
                       csvField(escapeBytes(view.token)),
                       QString::number(view.validityAt(nowMs)),
                       view.atRisk ? QStringLiteral("true") : QStringLiteral("false")}
        .join(QLatin1Char(','));
}

} // namespace lockscope
