// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"

#include <QString>

namespace lockscope {

// An incident's evidence and cause in words: one line per recorded event, masters as M1, M2, ...
namespace EvidenceLine {

QString masterLabel(int master);
QString mastersText(quint64 mask);
// "2026-12-03T01:02:03.456Z acquired tok on M1,M2,M3 (3 of 5), validity 9800 ms"; `masters`: the
// session's, for "of N".
QString of(const RecordEvent& e, int masters);

} // namespace EvidenceLine

} // namespace lockscope
