// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

namespace lockscope {

// How much one reply from a server may take before the connection gives up on that master: a broken
// or hostile server must not exhaust our memory by announcing (or sending) a huge reply. The defaults
// are far above anything a lock tool reads, and follow Redis's own proto-max-bulk-len for strings.
struct ReplyLimits
{
    qint64 maxBulkBytes = 512LL * 1024 * 1024;   // one bulk string (Redis's proto-max-bulk-len)
    qint64 maxElements = 4LL * 1024 * 1024;      // array elements in one reply, all levels together
    int maxDepth = 8;                            // nested arrays; 8 is also hiredis's own limit
    qint64 maxReplyBytes = 1024LL * 1024 * 1024; // bytes of one reply on the wire, headers included

    // The deepest nesting hiredis 0.14 can parse at all.
    static constexpr int hiredisMaxDepth = 8;

    bool operator==(const ReplyLimits&) const = default;
};

} // namespace lockscope
