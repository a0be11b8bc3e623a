// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "connection/connectionoptions.h"
#include "connection/masterhealth.h"
#include "connection/redisreply.h"

#include <QByteArrayList>

#include <functional>
#include <optional>
#include <vector>

namespace lockscope {

// What a connection sends on every connect, before any command of its user: who we are (AUTH), the
// database (SELECT), our name (CLIENT SETNAME), the server's identity, role and clock (INFO, TIME)
// and whether it has a compare-and-delete command (COMMAND INFO), and what each answer means. The
// steps are pipelined; the connection is up once every one has answered without a failure.
namespace ConnectionHandshake {

struct Failure
{
    ErrorKind kind = ErrorKind::ServerError;
    QString message; // without the connection's name, which the connection adds
};
struct Step
{
    QByteArrayList argv;
    // Reads the reply into the health given to steps(), or says why the connection fails.
    std::function<std::optional<Failure>(const RedisReply&)> onReply;
};

// The steps for `options`, in the order they are sent. Their answers fill in `health` (version,
// run_id, role, clock offset, latency), which must outlive them. Made just before sending: the
// TIME step measures from now.
std::vector<Step> steps(const ConnectionOptions& options, MasterHealth* health);

// The value of `name` in the "name:value" lines of an INFO section; empty when absent.
QByteArray infoField(const QByteArray& info, const QByteArray& name);
// Reads INFO server into `health`: run_id, and the server as it names itself. Valkey answers
// server_name:valkey, valkey_version:8.0.1 beside redis_version:7.2.4 (the version it is compatible
// with); any server that names itself has its <name>_version read the same way.
void readInfoServer(const QByteArray& info, MasterHealth* health);

} // namespace ConnectionHandshake

} // namespace lockscope
