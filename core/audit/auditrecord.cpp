// SPDX-License-Identifier: Apache-2.0
#include "audit/auditrecord.h"

#include "base/bytesdisplay.h"
#include "base/localidentity.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

namespace lockscope {

namespace {

// Names and tokens are bytes: recorded in the form `lockctl list` prints (\xNN, \\), which keeps
// every byte, so two different keys never give the same record (fromUtf8 made both U+FFFD).
QJsonValue bytes(const std::optional<QByteArray>& value)
{
    if (!value)
        return QJsonValue::Null;
    return escapeBytes(*value);
}

} // namespace

AuditRecord AuditRecord::now(const QString& action, const QByteArray& resource)
{
    AuditRecord record;
    record.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    record.user = LocalIdentity::user();
    record.host = LocalIdentity::host();
    record.pid = LocalIdentity::pid();
    // The program's own name: applicationName() is "lockscope" for both (it names the settings).
    record.program = QFileInfo(QCoreApplication::applicationFilePath()).fileName();
    record.action = action;
    record.resource = resource;
    return record;
}

QByteArray AuditRecord::toJson() const
{
    QJsonArray masterList;
    for (const QString& m : masters)
        masterList.append(m);
    QJsonArray perMaster;
    for (const MasterResult& r : results) {
        QJsonObject o{{QStringLiteral("master"), r.master}, {QStringLiteral("result"), r.result}};
        if (r.tokenBefore)
            o.insert(QStringLiteral("tokenBefore"), bytes(r.tokenBefore));
        if (!r.detail.isEmpty())
            o.insert(QStringLiteral("detail"), r.detail);
        perMaster.append(o);
    }
    QJsonObject o{
        {QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs)},
        {QStringLiteral("user"), user},
        {QStringLiteral("host"), host},
        {QStringLiteral("pid"), pid},
        {QStringLiteral("action"), action},
        {QStringLiteral("resource"), escapeBytes(resource)},
        {QStringLiteral("masters"), masterList},
        {QStringLiteral("token"), bytes(token)},
        {QStringLiteral("tokenBefore"), bytes(tokenBefore)},
        {QStringLiteral("expectedToken"), bytes(expectedToken)},
        {QStringLiteral("outcome"), outcome},
        {QStringLiteral("results"), perMaster},
    };
    if (!id.isEmpty())
        o.insert(QStringLiteral("id"), id);
    if (!program.isEmpty())
        o.insert(QStringLiteral("program"), program);
    if (!mode.isEmpty())
        o.insert(QStringLiteral("mode"), mode);
    if (!message.isEmpty())
        o.insert(QStringLiteral("message"), message);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace lockscope
