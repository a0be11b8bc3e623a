// SPDX-License-Identifier: Apache-2.0
#include "support/watchevents.h"

#include <QJsonDocument>
#include <QProcess>

namespace lockscope::test {

QJsonObject WatchEvents::find(const QString& event, const QString& key, const QString& value)
{
    while (m_watch.canReadLine())
        m_events << QJsonDocument::fromJson(m_watch.readLine()).object();
    for (const QJsonObject& e : std::as_const(m_events))
        if (e.value(QStringLiteral("event")).toString() == event && e.value(key).toString() == value)
            return e;
    return {};
}

} // namespace lockscope::test
