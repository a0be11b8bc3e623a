// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/pgcluster.h"

namespace lockscope::test {

// Starts `pg` with the roles of the shipped resources/sql/team-roles.sql, their passwords set, and
// LockScope's schema made by the owner's first connection, as a team's administrator would. False
// (with a warning saying why) otherwise.
bool startTeamCluster(PgCluster& pg, const QString& ownerPassword, const QString& writerPassword);

} // namespace lockscope::test
