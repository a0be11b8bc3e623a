// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "locking/forcereleaseoutcome.h"
#include "locking/forcereleaseplan.h"

#include <QMetaType>

namespace lockscope {

// A force-release result on its way from the core thread to the window, with the plan it executed.
struct ForceReleaseReport
{
    quint64 request = 0;
    ForceReleasePlan plan;
    ForceReleaseOutcome outcome;
};

} // namespace lockscope

// The core never crosses threads itself, so its plan types get their metatypes here.
Q_DECLARE_METATYPE(lockscope::ForceReleasePlan)
Q_DECLARE_METATYPE(lockscope::ForceReleaseRequest)
Q_DECLARE_METATYPE(lockscope::ForceReleaseReport)
