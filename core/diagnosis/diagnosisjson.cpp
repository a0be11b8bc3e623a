#include "diagnosis/diagnosisjson.h"

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

} // namespace lockscope
