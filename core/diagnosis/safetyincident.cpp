// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/safetyincident.h"

#include "base/bytesdisplay.h"
#include "record/historyjson.h"

#include <QJsonArray>

namespace lockscope {

QString safetyIncidentKindName(SafetyIncident::Kind kind)
{
    switch (kind) {
    case SafetyIncident::Kind::MajorityOverlap:
        return QStringLiteral("majority-overlap");
    case SafetyIncident::Kind::FailoverLoss:
        return QStringLiteral("failover-loss");
    case SafetyIncident::Kind::HandoverUnderLiveHolder:
        return QStringLiteral("handover-under-live-holder");
    case SafetyIncident::Kind::OverwrittenWhileHeld:
        return QStringLiteral("overwritten-while-held");
    case SafetyIncident::Kind::DeletedByNonHolder:
        return QStringLiteral("deleted-by-non-holder");
    case SafetyIncident::Kind::FencingRegression:
        return QStringLiteral("fencing-regression");
    }
    return QStringLiteral("majority-overlap");
}

QJsonObject safetyIncidentJson(const SafetyIncident& i)
{
    const auto holder = [](const QByteArray& token, const QString& owner) {
        QJsonObject o{{QStringLiteral("token"), escapeBytes(token)}};
        if (!owner.isEmpty())
            o.insert(QStringLiteral("owner"), owner);
        return o;
    };
    return {{QStringLiteral("kind"), safetyIncidentKindName(i.kind)},
            {QStringLiteral("confidence"), safetyConfidenceName(i.confidence)},
            {QStringLiteral("resource"), escapeBytes(i.resource)},
            {QStringLiteral("first"), holder(i.firstToken, i.firstOwner)},
            {QStringLiteral("second"), holder(i.secondToken, i.secondOwner)},
            {QStringLiteral("from"), HistoryJson::time(i.fromMs)},
            {QStringLiteral("to"), HistoryJson::time(i.toMs)},
            {QStringLiteral("cause"), i.cause},
            {QStringLiteral("evidence"), QJsonArray::fromStringList(i.evidence)}};
}

QString safetyIncidentHolders(const SafetyIncident& i)
{
    if (i.kind == SafetyIncident::Kind::FencingRegression)
        return QStringLiteral("fencing counter %1, then %2")
            .arg(escapeBytes(i.firstToken), escapeBytes(i.secondToken));
    const QString second = !i.secondToken.isEmpty()  ? escapeBytes(i.secondToken)
                           : i.secondOwner.isEmpty() ? QStringLiteral("a connection that never held it")
                                                     : QStringLiteral("the connection %1").arg(i.secondOwner);
    return QStringLiteral("%1 and %2").arg(escapeBytes(i.firstToken), second);
}

QString safetyIncidentIdentity(const SafetyIncident& i)
{
    return QString::fromLatin1(QByteArray::number(int(i.kind)) + '/' + i.resource.toBase64() + '/' +
                               i.firstToken.toBase64() + '/' + i.secondToken.toBase64() + '/' +
                               QByteArray::number(i.fromMs));
}

QList<SafetyIncident::Kind> allSafetyIncidentKinds()
{
    return {SafetyIncident::Kind::MajorityOverlap,         SafetyIncident::Kind::FailoverLoss,
            SafetyIncident::Kind::HandoverUnderLiveHolder, SafetyIncident::Kind::OverwrittenWhileHeld,
            SafetyIncident::Kind::DeletedByNonHolder,      SafetyIncident::Kind::FencingRegression};
}

QString safetyConfidenceName(SafetyIncident::Confidence confidence)
{
    switch (confidence) {
    case SafetyIncident::Confidence::Possible:
        return QStringLiteral("possible");
    case SafetyIncident::Confidence::Probable:
        return QStringLiteral("probable");
    case SafetyIncident::Confidence::Proven:
        return QStringLiteral("proven");
    }
    return QStringLiteral("possible");
}

} // namespace lockscope
