// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

class QSqlDatabase;

namespace lockscope {

// The recording's schema, version by version: the steps that take a file from one version to the
// next, and what a file of a given version must look like. A recording may come from elsewhere (a
// post-mortem copy, an attachment), so every structural assumption a reader or the writer makes is
// checked here before any of its statements runs.
namespace RecordingSchema {

// The schema this build writes; 1: the first recorder, 2: force-releases carry their audit id,
// 3: only the masters' events are indexed by time, 4: the resources' events by resource alone,
// 5: no per-resource index, each resource's events chained from its latest (events.prev,
// resources.last), 6: the latest events are stored every 30 s (heads_saved), 7: each session
// names its recorder (sessions.recorder).
inline constexpr int currentVersion = 7;

// The statements that take a database at version `fromVersion` (0 to currentVersion - 1) to
// the next.
const QStringList& migrationStep(int fromVersion);
// Why the database open on `db`, which says it is at `version`, is not a recording of that
// version (a view or a trigger, a table or a column missing, a version out of range), or an
// empty string. Version 0 is a new, empty file.
QString problem(const QSqlDatabase& db, int version);

} // namespace RecordingSchema

} // namespace lockscope
