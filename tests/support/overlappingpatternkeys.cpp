// SPDX-License-Identifier: Apache-2.0
#include "support/overlappingpatternkeys.h"

namespace lockscope::test {

bool writeOverlappingPatternKeys(RedisServer& server)
{
    return server
               .command({"EVAL",
                         "for i = 1, 2000 do redis.call('SET', 'lock:' .. i, 't', 'PX', 600000) "
                         "redis.call('SET', 'other:' .. i, 'x') end "
                         "for i = 1, 500 do redis.call('SET', 'mutex:' .. i, 't', 'PX', 600000) "
                         "redis.call('SET', 'jobs.lock.' .. i, 't', 'PX', 600000) end return 1",
                         "0"})
               .integer == 1;
}

} // namespace lockscope::test
