// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace lockscope {

// The Prometheus text exposition format, version 0.0.4: one # HELP and # TYPE per family, then its
// samples, without timestamps (a value is what the monitor sees at the time of the scrape).
class MetricsText
{
public:
    using Labels = QList<QPair<QByteArray, QString>>;

    // `type`: counter, gauge or info-style gauge ("gauge"); `help` is plain text (escaped here).
    void family(const QByteArray& name, const QByteArray& type, const QString& help);
    void sample(const QByteArray& name, const Labels& labels, double value);
    void sample(const QByteArray& name, double value) { sample(name, {}, value); }

    const QByteArray& text() const { return m_text; }

    // A label value as the format wants it: backslash, double quote and line feed escaped. The
    // value must already be text (server bytes go through escapeBytes first).
    static QByteArray escapeLabelValue(const QString& value);
    // Integers without a fraction, others with enough digits to round-trip; NaN and +Inf/-Inf as
    // the format spells them.
    static QByteArray formatValue(double value);

private:
    QByteArray m_text;
};

} // namespace lockscope
