// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "demo/demoscenariorunner.h"
#include "demo/demosimulation.h"

#include <QObject>

namespace lockscope {

class DemoCluster;

// The owner of the demo's simulation and of the runner that plays guided scenarios on it. The
// runner drives the simulation; the simulation does not know the runner (it only says when it
// stops, and the runner cancels its scenario then), so neither includes the other's header both ways.
class DemoLab final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoLab)

public:
    // `cluster` must outlive this object.
    explicit DemoLab(DemoCluster* cluster, QObject* parent = nullptr);
    ~DemoLab() override;

    DemoSimulation* simulation() { return &m_simulation; }
    DemoScenarioRunner* scenarios() { return &m_runner; }

private:
    DemoSimulation m_simulation;
    DemoScenarioRunner m_runner; // declared after the simulation: destroyed before it
};

} // namespace lockscope
