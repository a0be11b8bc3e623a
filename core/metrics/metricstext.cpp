// SPDX-License-Identifier: Apache-2.0
#include "metrics/metricstext.h"

#include <QLocale>

#include <cmath>

namespace lockscope {

void MetricsText::family(const QByteArray& name, const QByteArray& type, const QString& help)
{
    // HELP text escapes only the backslash and the line feed.
    QByteArray h = help.toUtf8();
    h.replace('\\', "\\\\").replace('\n', "\\n");
    m_text += "# HELP " + name + ' ' + h + '\n';
    m_text += "# TYPE " + name + ' ' + type + '\n';
}

void MetricsText::sample(const QByteArray& name, const Labels& labels, double value)
{
    m_text += name;
    if (!labels.isEmpty()) {
        m_text += '{';
        for (qsizetype i = 0; i < labels.size(); ++i) {
            if (i)
                m_text += ',';
            m_text += labels.at(i).first + "=\"" + escapeLabelValue(labels.at(i).second) + '"';
        }
        m_text += '}';
    }
    m_text += ' ' + formatValue(value) + '\n';
}

QByteArray MetricsText::escapeLabelValue(const QString& value)
{
    QByteArray out = value.toUtf8();
    out.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
    return out;
}

QByteArray MetricsText::formatValue(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        return QByteArray::number(qint64(value));
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
}

} // namespace lockscope
