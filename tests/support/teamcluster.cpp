// SPDX-License-Identifier: Apache-2.0
#include "support/teamcluster.h"

#include "audit/teamdatabase.h"
#include "support/testpaths.h"

#include <QFile>

namespace lockscope::test {

bool startTeamCluster(PgCluster& pg, const QString& ownerPassword, const QString& writerPassword)
{
    if (!pg.start()) {
        qWarning("%s", qPrintable(pg.errorString()));
        return false;
    }
    QFile roles(sourcePath(QStringLiteral("resources/sql/team-roles.sql")));
    if (!roles.open(QIODevice::ReadOnly))
        return false;
    bool ok = false;
    pg.psql(QString::fromUtf8(roles.readAll()), PgCluster::adminUser(), {}, &ok);
    if (ok)
        pg.psql(QStringLiteral(
                    "ALTER ROLE lockscope_owner PASSWORD '%1'; ALTER ROLE lockscope_writer PASSWORD '%2'")
                    .arg(ownerPassword, writerPassword),
                PgCluster::adminUser(), {}, &ok);
    if (!ok) {
        qWarning("%s", qPrintable(pg.errorString()));
        return false;
    }
    // The owner's first connection makes the tables; the writer then works with its own rights.
    TeamDatabase owner;
    const RedisError made =
        owner.open(*TeamDatabaseUrl::parse(pg.url(QStringLiteral("lockscope_owner"))), ownerPassword);
    if (made.isError())
        qWarning("%s", qPrintable(made.message));
    return !made.isError();
}

} // namespace lockscope::test
