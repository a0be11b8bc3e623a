// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"

#include <QByteArray>
#include <QList>
#include <QPair>

namespace lockscope {

// What one master showed for one key at one moment. Large values are cut at the configured
// limit and flagged: the monitor never holds a whole 100 MB value or a million hash fields.
struct KeyObservation
{
    bool present = false;
    bool truncated = false;                      // value, fields or members were cut (next to
                                                 // `present`: a lock keeps one per master)
    QByteArray type;                             // "string", "hash", "zset", "list", ...
    QByteArray value;                            // string value, at most maxValueBytes
    qint64 valueSize = 0;                        // the full length (STRLEN) when truncated
    QList<QPair<QByteArray, QByteArray>> fields; // hash fields, at most maxFields
    QList<QPair<QByteArray, double>> members;    // zset members with scores, at most maxFields
    qint64 elementCount = 0;                     // HLEN / ZCARD / LLEN
    qint64 pttlMs = -2;                          // -1: no expiry; -2: absent
    qint64 readAtMs = 0;                         // monotonic ms of the read, for live countdowns
    qint64 sentAtMs = 0; // monotonic ms the read went out (0: unknown): it saw the key as it was after this
    RedisError error;    // the master was unreachable or the read failed

    bool hasExpiry() const { return pttlMs >= 0; }
    bool operator==(const KeyObservation& o) const
    {
        return present == o.present && type == o.type && value == o.value && valueSize == o.valueSize &&
               truncated == o.truncated && fields == o.fields && members == o.members &&
               elementCount == o.elementCount && error.kind == o.error.kind;
    }
};

} // namespace lockscope
