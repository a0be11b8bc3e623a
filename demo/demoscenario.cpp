// SPDX-License-Identifier: Apache-2.0
#include "demo/demoscenario.h"

#include <QCoreApplication>

namespace lockscope {

QList<DemoScenario> allDemoScenarios()
{
    return {DemoScenario::MinorityFailure,   DemoScenario::MajorityFailure,
            DemoScenario::RestartDuringHold, DemoScenario::ClientPause,
            DemoScenario::ClockDrift,        DemoScenario::FailoverWithoutQuorum};
}

QString demoScenarioTitle(DemoScenario scenario)
{
    switch (scenario) {
    case DemoScenario::MinorityFailure:
        return QCoreApplication::translate("DemoScenario", "Minority failure");
    case DemoScenario::MajorityFailure:
        return QCoreApplication::translate("DemoScenario", "Majority failure");
    case DemoScenario::RestartDuringHold:
        return QCoreApplication::translate("DemoScenario", "Restart during a hold");
    case DemoScenario::ClientPause:
        return QCoreApplication::translate("DemoScenario", "Client pause beyond TTL");
    case DemoScenario::ClockDrift:
        return QCoreApplication::translate("DemoScenario", "Clock drift allowance");
    case DemoScenario::FailoverWithoutQuorum:
        return QCoreApplication::translate("DemoScenario", "Failover without a quorum");
    }
    return {};
}

QByteArray demoScenarioResource(DemoScenario scenario)
{
    switch (scenario) {
    case DemoScenario::MinorityFailure:
    case DemoScenario::MajorityFailure:
        return {};
    case DemoScenario::RestartDuringHold:
        return QByteArrayLiteral("lock:demo:ledger");
    case DemoScenario::ClientPause:
        return QByteArrayLiteral("lock:demo:report");
    case DemoScenario::ClockDrift:
        return QByteArrayLiteral("lock:demo:drift");
    case DemoScenario::FailoverWithoutQuorum:
        return QByteArrayLiteral("lock:demo:failover");
    }
    return {};
}

QString demoScenarioCaption(DemoScenario scenario)
{
    switch (scenario) {
    case DemoScenario::MinorityFailure:
        return QCoreApplication::translate(
            "DemoScenario",
            "Masters 4 and 5 are killed. Three of five still make a quorum: watch the clients "
            "keep acquiring, with no failures caused by the outage.");
    case DemoScenario::MajorityFailure:
        return QCoreApplication::translate(
            "DemoScenario", "Masters 3, 4 and 5 are killed. Two of five cannot make a quorum: every "
                            "acquisition fails and the locks in the table turn unknown.");
    case DemoScenario::RestartDuringHold:
        return QCoreApplication::translate(
            "DemoScenario", "Client A holds lock:demo:ledger on masters 1-3 (4 and 5 are down). Master 3 "
                            "restarts without persistence and forgets it: the table marks the lock at risk. "
                            "Then client B gets masters 3-5, a quorum: two holders at once, drawn in red.");
    case DemoScenario::ClientPause:
        return QCoreApplication::translate(
            "DemoScenario",
            "Client A checks its lock, then stops the world for longer than its TTL. The lock "
            "expires and B takes it with a higher fencing number. A wakes up and writes with "
            "its old number: fencing on rejects it, fencing off lets it through (a violation).");
    case DemoScenario::ClockDrift:
        return QCoreApplication::translate(
            "DemoScenario", "Client A's validity is ttl - elapsed - drift allowance (ttl x 0.01 + 2 ms). Its "
                            "work overruns that validity, so it drops its write; B gets the lock only after "
                            "the servers' TTL: the allowance is the gap between the two bars.");
    case DemoScenario::FailoverWithoutQuorum:
        return QCoreApplication::translate(
            "DemoScenario",
            "A local Sentinel group (1 primary, 1 replica, 3 sentinels) starts. A takes lock:demo:failover "
            "on "
            "the primary before the replica has it (WAIT shows 0), the primary is killed and Sentinel "
            "promotes the replica: B takes the same lock there, and LockScope shows both holders. Then the "
            "same on the 5 Redlock masters: one is restarted empty, and the quorum refuses B.");
    }
    return {};
}

} // namespace lockscope
