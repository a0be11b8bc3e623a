// SPDX-License-Identifier: Apache-2.0
#include "widgets/pttltext.h"

#include <QCoreApplication>

namespace lockscope {

QString pttlText(const MasterObservation& m, qint64 nowMs)
{
    if (!m.present() || m.error().isError())
        return QString();
    if (!m.hasExpiry())
        return QCoreApplication::translate("lockscope", "no expiry");
    return QCoreApplication::translate("lockscope", "%1 ms").arg(m.pttlAt(nowMs));
}

} // namespace lockscope
