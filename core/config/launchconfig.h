// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "config/masteroverrides.h"

#include <optional>

namespace lockscope {

// The configuration a process was started with (--config, then the command line), and how a
// configuration chosen later (a connection profile in the window, at start-up or with Ctrl+K)
// combines with it. docs/manual/configuration.md ("Launch options and connection profiles") states the
// same rules:
//  - the profile brings the masters: URLs, users, passwords, TLS files;
//  - the profile's patterns, when it has any, replace the --config file's; --pattern and
//    --discover on the command line replace both;
//  - everything else stays the launch's: owner rules, scan and Redlock settings, the timeout
//    (--timeout-ms), the audit log (--audit-log);
//  - --timeout-ms and --tls-* apply to the profile's masters as they do to -m masters;
//  - read-only only tightens. A profile marked read-only opens read-only. A process started
//    read-only (--read-only, "readOnly": true), or that has opened a profile locked read-only,
//    stays read-only for its whole life, whatever is chosen next.
//  - a profile marked production opens read-only too; its writes can be unlocked for the session
//    (unlocked()), unless the profile or the process is read-only by itself.
class LaunchConfig
{
public:
    LaunchConfig() = default;
    LaunchConfig(LockScopeConfig config, MasterOverrides overrides)
        : m_config(std::move(config)), m_overrides(std::move(overrides)), m_readOnlyForGood(m_config.readOnly)
    {}

    const LockScopeConfig& config() const { return m_config; }
    const MasterOverrides& overrides() const { return m_overrides; }
    bool isReadOnlyForGood() const { return m_readOnlyForGood; }

    // The command line named the patterns (--pattern, --discover): a profile's do not replace them.
    void setPatternsGiven(bool given) { m_patternsGiven = given; }
    bool patternsGiven() const { return m_patternsGiven; }
    // The command line named the scan rate (--scan-rate): a profile's does not replace it.
    void setScanRateGiven(bool given) { m_scanRateGiven = given; }

    // `chosen`: the profile's masters and its read-only flag. `lockedReadOnly`: the profile is
    // locked read-only, which makes this process read-only from now on. `profilePatterns`: the
    // profile's own patterns (none: the launch's). `profileScanRate`: the profile's own scan rate.
    LockScopeConfig combine(const LockScopeConfig& chosen, bool lockedReadOnly,
                            const QList<ScanPattern>& profilePatterns = {},
                            const std::optional<ScanRate>& profileScanRate = {});
    // Whatever a window is asked to run: never less read-only than the process has been.
    LockScopeConfig tightened(LockScopeConfig config) const;
    // `current` with its writes unlocked for this session, when it is a production profile's that is
    // read-only only because it is production; none otherwise.
    std::optional<LockScopeConfig> unlocked(LockScopeConfig current) const;

private:
    LockScopeConfig m_config;
    MasterOverrides m_overrides;
    bool m_readOnlyForGood = false;
    bool m_scanRateGiven = false;
    bool m_patternsGiven = false;
    bool m_chosenReadOnly = false; // the profile last combined is read-only by itself
};

} // namespace lockscope
