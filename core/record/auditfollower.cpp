// SPDX-License-Identifier: Apache-2.0
#include "record/auditfollower.h"

#include "base/bytesdisplay.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace lockscope {

namespace {

// Deleted the key or removed the holder on at least one master: the lock was (at least partly) let go.
bool deletedSomething(const QJsonObject& record)
{
    for (const QJsonValue& r : record.value(QStringLiteral("results")).toArray()) {
        const QString result = r.toObject().value(QStringLiteral("result")).toString();
        if (result == QLatin1String("deleted") || result == QLatin1String("holder-removed"))
            return true;
    }
    return false;
}

} // namespace

AuditFollower::AuditFollower(QString path) : m_path(std::move(path)) {}

void AuditFollower::skipToEnd()
{
    m_offset = m_path.isEmpty() ? 0 : QFileInfo(m_path).size();
}

RecordEventList AuditFollower::poll()
{
    RecordEventList out;
    if (m_path.isEmpty())
        return out;
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return out;
    if (file.size() < m_offset)
        m_offset = 0;
    if (file.size() == m_offset || !file.seek(m_offset))
        return out;
    const QByteArray data = file.readAll();
    const qsizetype end = data.lastIndexOf('\n');
    if (end < 0)
        return out;
    m_offset += end + 1;
    for (const QByteArray& line : data.left(end).split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.value(QStringLiteral("action")).toString() != QLatin1String("force-release") ||
            !deletedSomething(o))
            continue;
        const Result<QByteArray> resource = unescapeBytes(o.value(QStringLiteral("resource")).toString());
        if (!resource || resource->isEmpty())
            continue;
        RecordEvent e;
        e.kind = RecordEvent::Kind::ForceReleased;
        e.resource = *resource;
        const QDateTime time =
            QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
        e.timeMs = time.isValid() ? time.toMSecsSinceEpoch() : QDateTime::currentMSecsSinceEpoch();
        // The token the administrator saw (guarded: the one required), where the record has one.
        for (const char* field : {"tokenBefore", "expectedToken"})
            if (const QJsonValue v = o.value(QLatin1String(field)); v.isString())
                if (const Result<QByteArray> token = unescapeBytes(v.toString()); token && e.token.isEmpty())
                    e.token = *token;
        // Records from before audit ids existed are named by their time and process.
        e.auditId = o.value(QStringLiteral("id")).toString();
        if (e.auditId.isEmpty())
            e.auditId = QStringLiteral("%1/%2")
                            .arg(o.value(QStringLiteral("time")).toString())
                            .arg(o.value(QStringLiteral("pid")).toInteger());
        e.detail =
            QStringLiteral("by %1@%2 (%3)")
                .arg(o.value(QStringLiteral("user")).toString(), o.value(QStringLiteral("host")).toString(),
                     o.value(QStringLiteral("mode")).toString());
        out << e;
    }
    return out;
}

} // namespace lockscope
