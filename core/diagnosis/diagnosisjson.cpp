// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/diagnosisjson.h"

#include "export/jsonmembers.h"

#include <QJsonObject>

namespace lockscope {

QJsonArray diagnosisJson(const QList<Diagnosis>& diagnoses)
{
    QJsonArray out;
    for (const Diagnosis& d : diagnoses)
        out << QJsonObject{{QStringLiteral("code"), diagnosisCodeName(d.code)},
                           {QStringLiteral("sentence"), d.sentence}};
    return out;
}

void appendDiagnosisJson(std::string& out, const QList<Diagnosis>& diagnoses)
{
    out += '[';
    for (qsizetype i = 0; i < diagnoses.size(); ++i) {
        if (i > 0)
            out += ',';
        JsonMembers diagnosis(out);
        diagnosis.text("code", diagnosisCodeName(diagnoses.at(i).code));
        diagnosis.text("sentence", diagnoses.at(i).sentence);
    }
    out += ']';
}

} // namespace lockscope
