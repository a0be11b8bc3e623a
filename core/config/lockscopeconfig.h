// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/teamdatabaseurl.h"
#include "config/scanpattern.h"
#include "config/scanrate.h"
#include "connection/connectionoptions.h"
#include "formats/ownerrule.h"

#include <QByteArrayList>
#include <QList>
#include <QString>

#include <optional>

namespace lockscope {

// How discovery looks for locks.
struct MonitorSettings
{
    // Lock libraries name keys in many ways; the defaults cover the common ones (ScanPattern::
    // defaults()). Anything else is one --pattern away, or a --discover pattern that finds the locks
    // among other keys (PatternScope).
    QList<ScanPattern> patterns = ScanPattern::defaults();
    int scanCount = 1000;            // SCAN COUNT (the largest page: a paced pass asks for less)
    ScanRate scanRate;               // how fast a pass may go (--scan-rate)
    int pollIntervalMs = 2000;       // full pass when keyspace events are not available
    int reconcileIntervalMs = 30000; // full pass even when events flow, to catch what they missed
    int maxValueBytes = 4096;        // longer string values are shown truncated, never loaded whole
    int maxFields = 256;             // hash fields / zset members read per key
};

// The Redlock algorithm's knobs (defaults as in the reference implementations).
struct RedlockSettings
{
    double driftFactor = 0.01;
    int driftConstantMs = 2;
    int retryCount = 3;
    int retryDelayMs = 200;
    int retryJitterMs = 100;
    int masterTimeoutMs = 50; // per master, short relative to the TTL
};

struct LockScopeConfig
{
    QList<ConnectionOptions> masters;
    MonitorSettings monitor;
    RedlockSettings redlock;
    QList<OwnerRule> ownerRules;
    bool readOnly = false;
    // A connection profile marked production (the window's; no config-file key): it opens read-only,
    // writes are unlocked for one session at a time (LaunchConfig::unlocked), and a core that starts
    // writable on it records that in the audit log first, staying read-only if it cannot.
    bool production = false;
    QString auditLogPath; // empty: the default location
    // Write to an audit log that group or others may read (AuditLog refuses it otherwise).
    bool allowSharedAuditLog = false;
    // The team's shared database (--team-db, "teamDatabase"): every write is audited there too.
    std::optional<TeamDatabaseUrl> teamDatabase;
    // From --team-db-password-env or "teamDatabasePasswordEnv"; empty: libpq's (PGPASSWORD, ~/.pgpass).
    QString teamDatabasePassword;
    int timeoutMs = 2000;
    // The environment variables passwords were read from (--password-env, "passwordEnv"): a child
    // process started for the user (lockctl hold) does not inherit them.
    QStringList passwordEnvVars;
    ReplyLimits replyLimits; // for every master (each master's ConnectionOptions carries a copy)

    // Drift allowance for a TTL, as every Redlock implementation computes it.
    qint64 driftMs(qint64 ttlMs) const
    {
        return qint64(double(ttlMs) * redlock.driftFactor) + redlock.driftConstantMs;
    }
};

} // namespace lockscope
