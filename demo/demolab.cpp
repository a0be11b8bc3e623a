// SPDX-License-Identifier: Apache-2.0
#include "demo/demolab.h"

namespace lockscope {

DemoLab::DemoLab(DemoCluster* cluster, QObject* parent)
    : QObject(parent), m_simulation(cluster), m_runner(&m_simulation)
{}

DemoLab::~DemoLab()
{
    // While the runner still exists: stopping the simulation cancels a running scenario (and the
    // failover scenario's Sentinel group) first.
    m_simulation.stop();
}

} // namespace lockscope
