// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

// A connection profile's team database (PostgreSQL, docs/manual/team.md): where the window writes
// its audit trail besides its own file. As for a master, no password here: it lives in the system
// keychain (keyed by keychainKey()), or in the environment variable passwordEnv names, or in
// libpq's own (PGPASSWORD, ~/.pgpass).
struct TeamDatabaseEntry
{
    QString url; // postgresql://USER@HOST[:PORT]/DBNAME, never with a password; empty: none
    QString passwordEnv;
    bool passwordInKeychain = false;

    bool isEmpty() const { return url.isEmpty(); }
    QString keychainKey(const QString& profile) const { return profile + QStringLiteral("/team-database"); }
    bool operator==(const TeamDatabaseEntry&) const = default;
};

} // namespace lockscope
