// SPDX-License-Identifier: Apache-2.0
#include "diagnosis/safetyincident.h"

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
