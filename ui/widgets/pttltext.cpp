#include "widgets/pttltext.h"

#include <QCoreApplication>

namespace lockscope {

QString pttlText(const MasterObservation& m, qint64 nowMs)
{
    if (!m.present() || m.error().isError())
        return QString();
    if (!m.hasExpiry())
        return QCoreApplication::translate("lockscope", "no expiry");
    // Counted down from the read, as the server counts it: never the PTTL of the moment it was read.
    const qint64 left = qMax<qint64>(0, m.pttlMs() - (nowMs - m.readAtMs()));
    return QCoreApplication::translate("lockscope", "%1 ms").arg(left);
}

} // namespace lockscope
