// SPDX-License-Identifier: Apache-2.0
#include "config/launchconfig.h"

namespace lockscope {

LockScopeConfig LaunchConfig::combine(const LockScopeConfig& chosen, bool lockedReadOnly,
                                      const QList<ScanPattern>& profilePatterns,
                                      const std::optional<ScanRate>& profileScanRate)
{
    m_readOnlyForGood = m_readOnlyForGood || lockedReadOnly;
    LockScopeConfig out = m_config;
    out.masters = chosen.masters;
    // The profile knows how its servers name their locks; only this run's command line knows better.
    if (!profilePatterns.isEmpty() && !m_patternsGiven)
        out.monitor.patterns = profilePatterns;
    // Likewise how hard its servers may be pressed (a production profile "auto", a lab one "max").
    if (profileScanRate && !m_scanRateGiven)
        out.monitor.scanRate = *profileScanRate;
    // A profile has no timeouts of its own: the launch's, and the command line's on top.
    for (ConnectionOptions& m : out.masters) {
        m.commandTimeoutMs = m.connectTimeoutMs = m_config.timeoutMs;
        m_overrides.applyTo(m);
    }
    // Its team database, unless this run's command line named one.
    if (chosen.teamDatabase && !m_config.teamDatabase) {
        out.teamDatabase = chosen.teamDatabase;
        out.teamDatabasePassword = chosen.teamDatabasePassword;
    }
    m_chosenReadOnly = chosen.readOnly;
    out.production = chosen.production;
    out.readOnly = m_readOnlyForGood || chosen.readOnly || chosen.production;
    return out;
}

LockScopeConfig LaunchConfig::tightened(LockScopeConfig config) const
{
    config.readOnly = config.readOnly || m_readOnlyForGood;
    return config;
}

std::optional<LockScopeConfig> LaunchConfig::unlocked(LockScopeConfig current) const
{
    if (!current.production || m_readOnlyForGood || m_chosenReadOnly)
        return std::nullopt;
    current.readOnly = false;
    return current;
}

} // namespace lockscope
