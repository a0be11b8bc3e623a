#include "diagnosis/diagnosisjson.h"

#include "export/jsontext.h"

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
        const Diagnosis& d = diagnoses.at(i);
        if (i > 0)
            out += ',';
        out += '{';
        JsonText::appendKey(out, "code");
        JsonText::appendString(out, diagnosisCodeName(d.code));
        out += ',';
        JsonText::appendKey(out, "sentence");
        JsonText::appendString(out, d.sentence);
        out += '}';
    }
    out += ']';
}

} // namespace lockscope
