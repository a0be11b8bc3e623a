#include "launchconfig.h"

namespace lockscope {

LockScopeConfig LaunchConfig::combine(const LockScopeConfig& chosen, bool lockedReadOnly)
{
    m_readOnlyForGood = m_readOnlyForGood || lockedReadOnly;
    LockScopeConfig out = m_config;
    out.masters = chosen.masters;
    // A profile has no timeouts of its own: the launch's, and the command line's on top.
    for (ConnectionOptions& m : out.masters) {
        m.commandTimeoutMs = m.connectTimeoutMs = m_config.timeoutMs;
        m_overrides.applyTo(m);
    }
    out.readOnly = m_readOnlyForGood || chosen.readOnly;
    return out;
}

LockScopeConfig LaunchConfig::tightened(LockScopeConfig config) const
{
    config.readOnly = config.readOnly || m_readOnlyForGood;
    return config;
}

} // namespace lockscope
