// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"
#include "config/lockscopeconfig.h"
#include "connections/connectionprofile.h"

#include <QList>

namespace lockscope {

// Connection profiles in QSettings. Only what is safe to keep in clear text is written: URLs
// without passwords, users, TLS file paths, environment variable names.
namespace ProfileStore {

QList<ConnectionProfile> load();
// A profile saved as read-only-locked stays locked: a later save that tries to clear the lock of a
// profile with that name keeps it.
void save(const QList<ConnectionProfile>& profiles);

// A profile as the monitor's configuration, with the passwords found (keyed by URL).
Result<LockScopeConfig> toConfig(const ConnectionProfile& profile, const QHash<QString, QString>& passwords);

} // namespace ProfileStore

} // namespace lockscope
