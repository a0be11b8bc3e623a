// SPDX-License-Identifier: Apache-2.0
#include "discovery/commandcountprobe.h"

#include "base/monotonicclock.h"
#include "connection/connectionhandshake.h"
#include "connection/redisconnection.h"
#include "discovery/scanpacer.h"

namespace lockscope {

void CommandCountProbe::sendIfDue(RedisConnection* connection, ScanPacer* pacer, QObject* context)
{
    const qint64 nowUs = monotonicNs() / 1000;
    if (!pacer->wantsCommandCount(nowUs))
        return;
    const quint32 pass = pacer->commandCountSent(nowUs);
    connection->send({"INFO", "stats"}, context, [connection, pacer, pass](const RedisResult& r) {
        if (!r.ok())
            return; // the connection failed: the pass starts again, and so does the count
        bool known = false;
        const qint64 total = r.reply.isString()
                                 ? ConnectionHandshake::infoField(r.reply.string, "total_commands_processed")
                                       .toLongLong(&known)
                                 : 0;
        if (!known) {
            // Refused (an ACL without INFO, a renamed command) or a server without the field.
            pacer->commandCountRefused();
            return;
        }
        pacer->commandsCounted(pass, total, qint64(connection->repliesRead()), monotonicNs() / 1000);
    });
}

} // namespace lockscope
