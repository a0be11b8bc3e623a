// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "diagnosis/diagnosis.h"
#include "record/resourcehistory.h"

#include <QJsonObject>

namespace lockscope {

// `lockctl history --json`'s document (docs/manual/flight-recorder.md), which the window's History dock
// exports too: the history as HistoryJson writes it, with "diagnosis", what the recording says of
// the episode still open (RecordedStory::diagnose).
QJsonObject historyReportJson(const ResourceHistory& history, const QList<Diagnosis>& diagnoses);

} // namespace lockscope
