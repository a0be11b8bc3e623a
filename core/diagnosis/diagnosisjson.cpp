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

QByteArray diagnosisJsonText(const QList<Diagnosis>& diagnoses)
{
    QByteArray out = "[";
    for (const Diagnosis& d : diagnoses) {
        if (out.size() > 1)
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
    return out;
}

} // namespace lockscope
