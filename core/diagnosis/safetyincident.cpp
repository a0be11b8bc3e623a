// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/safetyincident.h"

#include "base/bytesdisplay.h"

#include <QDateTime>
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
    }
    return QStringLiteral("majority-overlap");
}

QJsonObject safetyIncidentJson(const SafetyIncident& i)
{
    const auto utc = [](qint64 ms) {
        return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
    };
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
            {QStringLiteral("from"), utc(i.fromMs)},
            {QStringLiteral("to"), utc(i.toMs)},
            {QStringLiteral("cause"), i.cause},
            {QStringLiteral("evidence"), QJsonArray::fromStringList(i.evidence)}};
}

QList<SafetyIncident::Kind> allSafetyIncidentKinds()
{
    return {SafetyIncident::Kind::MajorityOverlap, SafetyIncident::Kind::FailoverLoss,
            SafetyIncident::Kind::HandoverUnderLiveHolder, SafetyIncident::Kind::OverwrittenWhileHeld};
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
