// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/resourcehistory.h"

namespace lockscope {

// A resource's episodes as the History dock's CSV export writes them: "resource,token,owner,from,
// to,end", one row per episode, with the JSON's times, escaping and end names (HistoryJson), `to`
// empty while the episode is open.
QByteArray historyCsv(const QByteArray& resource, const QList<Episode>& episodes);

} // namespace lockscope
