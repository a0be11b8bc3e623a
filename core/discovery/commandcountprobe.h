// SPDX-License-Identifier: Apache-2.0
#pragma once

class QObject;

namespace lockscope {

class RedisConnection;
class ScanPacer;

// The paced page loops' count of the server's commands (ScanPacer, "Other clients"): INFO stats on
// the loop's own connection when the pacer wants it, its total_commands_processed and the replies the
// connection had read by then handed back to the pacer.
namespace CommandCountProbe {

// Sends it when due (paced passes only: the pacer says). `context` holds `pacer`: no reading is
// handed over once it is gone.
void sendIfDue(RedisConnection* connection, ScanPacer* pacer, QObject* context);

} // namespace CommandCountProbe

} // namespace lockscope
