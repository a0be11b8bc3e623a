#pragma once

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

} // namespace lockscope
