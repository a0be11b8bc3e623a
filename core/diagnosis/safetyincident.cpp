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
    }
    return QStringLiteral("majority-overlap");
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
