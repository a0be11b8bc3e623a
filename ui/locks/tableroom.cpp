// SPDX-License-Identifier: Apache-2.0
#include "locks/tableroom.h"

#include <QtAlgorithms>

namespace lockscope {

qsizetype tableRoomFor(qint64 forecast)
{
    if (forecast <= 0)
        return 0;
    return qsizetype(qMin(forecast + forecast / 4, qint64(qNextPowerOfTwo(quint64(forecast - 1)))));
}

} // namespace lockscope
