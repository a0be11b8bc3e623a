// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace lockscope {

// The guided scenarios of the demo, each one click, with what to watch.
enum class DemoScenario
{
    MinorityFailure,
    MajorityFailure,
    RestartDuringHold,
    ClientPause,
    ClockDrift,
    // Sentinel (one primary, one replica) against five independent Redlock masters.
    FailoverWithoutQuorum,
};

QList<DemoScenario> allDemoScenarios();
QString demoScenarioTitle(DemoScenario scenario);
QString demoScenarioCaption(DemoScenario scenario);
// The lock the scenario's story is about (the window pins it in the locks table while the caption is
// shown); empty for the scenarios that play on the background clients' locks.
QByteArray demoScenarioResource(DemoScenario scenario);

} // namespace lockscope
