// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "formats/keyobservation.h"

#include <QByteArrayList>

#include <functional>

namespace lockscope {

class RedisConnection;

// Reads keys as observations with as few round trips as the types allow: PTTL + GETRANGE in one
// pipeline for every key (strings, the common case, are done then), a second pipeline for the
// others (TYPE and HLEN/HSCAN, ZCARD/ZRANGE ... capped by maxFields), STRLEN only when a value
// was cut. Values are read with GETRANGE, so a 100 MB value never crosses the wire whole.
namespace KeyReader {

using Done = std::function<void(QList<KeyObservation>)>;

// `done` runs once, with one observation per key in the same order (errors inside them).
void read(RedisConnection* connection, const QByteArrayList& keys, const MonitorSettings& settings,
          Done done);

} // namespace KeyReader

} // namespace lockscope
