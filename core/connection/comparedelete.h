// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redisreply.h"

#include <QByteArrayList>
#include <QString>

namespace lockscope {

// How a master deletes a key only while it still holds a given value (a token-guarded release):
// with a command of its own where it has one, Valkey 9's `DELIFEQ key value` or Redis 8.4's
// `DELEX key IFEQ value`, else with the token-checked Lua script every server runs. Each answers 1
// (deleted) or 0 (absent, or another value), and WRONGTYPE for a key that is no string.
enum class CompareDelete : quint8
{
    Script,
    DelIfEq,
    DelEx,
};

namespace CompareDeleteProbe {

// What the connection handshake asks: the server's own list of its commands, never its version
// (a fork, a module or a rename can add or take a command whatever the version says).
QByteArrayList command();
// From the reply to command(): one element per name asked, nil for a command the server lacks.
// Anything else (an error, NOPERM for a user without +command, a proxy's reply) means Script.
CompareDelete read(const RedisReply& reply);

} // namespace CompareDeleteProbe

class RedisConnection;

// What to send a token-guarded delete as on `connection`: its handshake's answer, except on a
// routed (cluster) entry, whose health is the cluster's and not that of the node that will run it.
CompareDelete compareDeleteOn(const RedisConnection& connection);

// The command that deletes `key` only if it holds `value`; empty for Script.
QByteArrayList compareDeleteCommand(CompareDelete how, const QByteArray& key, const QByteArray& value);
// "DELIFEQ", "DELEX IFEQ", "script": what a release is sent as (lockctl list --json, the masters table).
QString compareDeleteName(CompareDelete how);

} // namespace lockscope
