// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/historyreport.h"

#include "diagnosis/diagnosisjson.h"
#include "record/historyjson.h"

namespace lockscope {

QJsonObject historyReportJson(const ResourceHistory& history, const QList<Diagnosis>& diagnoses)
{
    QJsonObject json = HistoryJson::history(history);
    json.insert(QStringLiteral("diagnosis"), diagnosisJson(diagnoses));
    return json;
}

} // namespace lockscope
