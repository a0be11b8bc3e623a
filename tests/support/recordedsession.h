// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "record/recordevent.h"

#include <QStringList>

namespace lockscope::test {

// One finished recording session in the file at `path` (made when missing): `masters`, then
// `events`, as `lockctl record` would have written them. False, with the writer's reason in
// `error`, when the file did not open.
bool recordSession(const QString& path, const QStringList& masters, const RecordEventList& events,
                   QString* error = nullptr);

} // namespace lockscope::test
