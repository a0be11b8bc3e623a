// SPDX-License-Identifier: Apache-2.0
#include "audit/auditreader.h"

#include <QFile>
#include <QJsonDocument>

namespace lockscope {

AuditReader::Tail AuditReader::read(const QString& path, int maxRecords, qint64 tailBytes)
{
    Tail tail;
    QFile file(path);
    tail.exists = file.exists();
    if (!tail.exists)
        return tail;
    if (!file.open(QIODevice::ReadOnly)) {
        tail.error = file.errorString();
        return tail;
    }
    if (file.size() > tailBytes) {
        file.seek(file.size() - tailBytes);
        tail.cut = true;
    }
    QList<QByteArray> lines = file.readAll().split('\n');
    if (tail.cut && !lines.isEmpty())
        lines.removeFirst(); // cut mid-line by the seek
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray& line = lines.at(i);
        if (line.trimmed().isEmpty())
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(line);
        if (doc.isObject())
            tail.records << doc.object();
        else
            tail.tornLines << i + 1 + (tail.cut ? 1 : 0);
    }
    if (tail.records.size() > maxRecords)
        tail.records = tail.records.mid(tail.records.size() - maxRecords);
    return tail;
}

} // namespace lockscope
