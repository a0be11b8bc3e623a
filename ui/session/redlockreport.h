// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "locking/redlockoutcome.h"

#include <QMetaType>

namespace lockscope {

// An acquire / extend / release result on its way from the core thread to the window.
struct RedlockReport
{
    quint64 request = 0;
    QString action; // acquire, extend, release
    QByteArray resource;
    RedlockOutcome outcome;
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::RedlockReport)
