// SPDX-License-Identifier: Apache-2.0
#include "support/serveprocess.h"

#include <QRegularExpression>

namespace lockscope::test {

bool ServeProcess::start(const QStringList& args, int timeoutMs)
{
    static const QRegularExpression serving(QStringLiteral("serving (https?://\\S+/metrics)"));
    if (m_process.start(args + QStringList{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")}) &&
        m_process.waitForOutput("/metrics\n", timeoutMs)) {
        if (const QRegularExpressionMatch m = serving.match(QString::fromUtf8(m_process.out()));
            m.hasMatch()) {
            m_url = QUrl(m.captured(1));
            return true;
        }
    }
    m_error = QStringLiteral("lockctl serve did not say where it serves: %1").arg(m_process.describe());
    return false;
}

QUrl ServeProcess::url(const QString& path) const
{
    QUrl u = m_url;
    u.setPath(path);
    return u;
}

} // namespace lockscope::test
