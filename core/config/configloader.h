// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "config/lockscopeconfig.h"

#include <QStringList>

namespace lockscope {

// Reads the JSON configuration shared by lockctl and the window:
// {
//   "masters": ["redis://h1:6379", {"url": "rediss://h2:6380", "passwordEnv": "H2_PW",
//                                   "tls": {"ca": "ca.pem"}, "timeoutMs": 500}],
//   "patterns": ["lock:*", {"match": "*", "mode": "discover"}],  // a plain string: mode "locks"
//   "scanCount": 1000, "scanRate": "auto", "pollIntervalMs": 2000, "reconcileIntervalMs": 30000,
//   "timeoutMs": 2000, "tls": {"ca": "", "cert": "", "key": "", "serverName": "", "insecure": false},
//   "ownerRules": [{"keys": "lock:*", "pattern": "^(?<owner>[^:]+):"}],
//   "readOnly": false, "auditLog": "/var/log/lockscope/audit.jsonl",
//   "redlock": {"driftFactor": 0.01, "driftMs": 2, "retryCount": 3, "retryDelayMs": 200,
//               "retryJitterMs": 100, "masterTimeoutMs": 50}
// }
// Errors name the line (syntax) or the field (types, values); unknown fields become warnings.
namespace ConfigLoader {

Result<LockScopeConfig> fromJson(const QByteArray& json, QStringList* warnings = nullptr,
                                 const QString& sourceName = QString());
Result<LockScopeConfig> fromFile(const QString& path, QStringList* warnings = nullptr);

// A master given as a URL string plus the global TLS/timeout settings; used by -m as well.
// redis-sentinel:// and rediss-sentinel:// URLs give a Sentinel entry (ConnectionOptions::topology).
Result<ConnectionOptions> masterFromUrl(const QString& url, const TlsOptions& tls, int timeoutMs);
// The data nodes' credentials of a master entry, plain or Sentinel (from "user", "passwordEnv"
// or --password-env).
void setMasterUser(ConnectionOptions& master, const QString& user);
void setMasterPassword(ConnectionOptions& master, const QString& password);

// The team database from its URL (empty: the one `config` has) and the environment variable naming its
// password (empty: libpq's own, PGPASSWORD or ~/.pgpass); InvalidUrl or InvalidConfig, never with the URL's
// secrets, when they are not usable.
RedisError setTeamDatabase(LockScopeConfig& config, const QString& url, const QString& passwordEnv);

} // namespace ConfigLoader

} // namespace lockscope
