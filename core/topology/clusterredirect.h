// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/nodeaddress.h"
#include "connection/redisreply.h"

#include <optional>

namespace lockscope {

// A cluster node's "this slot is elsewhere" answer, typed. MOVED: the slot now lives on `target` for
// good (refresh the slot map). ASK: only this one command goes to `target`, preceded by ASKING,
// while the slot migrates.
struct ClusterRedirect
{
    enum class Kind
    {
        Moved,
        Ask,
    };

    Kind kind = Kind::Moved;
    int slot = -1;
    NodeAddress target;

    // Empty unless `reply` is a well-formed MOVED or ASK error. A node that does not know its own
    // address names only the port; `answeredBy` then supplies the host.
    static std::optional<ClusterRedirect> fromReply(const RedisReply& reply, const QString& answeredByHost);
};

} // namespace lockscope
