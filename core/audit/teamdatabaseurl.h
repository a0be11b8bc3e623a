// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <QString>

namespace lockscope {

// Where a team keeps its shared state (issue #45): postgresql://USER@HOST[:PORT]/DBNAME[?sslmode=…]
// (postgres:// alike). The password is never part of it: a URL is shown, logged and saved, so one
// that carries a password is refused; it comes from an environment variable the user names
// (--team-db-password-env, "teamDatabasePasswordEnv") or, as for psql, from PGPASSWORD or
// ~/.pgpass, which libpq reads itself.
struct TeamDatabaseUrl
{
    QString host;
    int port = 5432;
    QString user;
    QString database;
    QString sslMode;     // empty: libpq's default (prefer)
    QString sslRootCert; // a file
    int connectTimeoutS = 5;

    // Whether `text` names a PostgreSQL database (postgresql:// or postgres://), not a file.
    static bool isPostgresUrl(const QString& text);
    // The URL's parts, or InvalidUrl saying what is wrong without repeating the URL (it may hold a
    // password the user did not mean to show).
    static Result<TeamDatabaseUrl> parse(const QString& text);
    // postgresql://user@host:port/db: what a message or a saved setting shows.
    QString toString() const;
    // Qt's QPSQL connect options (libpq's keywords).
    QString connectOptions() const;
};

} // namespace lockscope
