// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

struct RedisReply;

// How a master's part of the view is kept current.
enum class NotificationMode
{
    Unknown, // not determined yet (master not up)
    Live,    // keyspace notifications flow; periodic reconciliation catches anything missed
    Polling, // full passes at the poll interval
};

QString notificationModeName(NotificationMode mode);

// True when notify-keyspace-events flags publish everything a lock's life produces
// (keyspace channel, generic, string, hash, zset and expiry events).
bool notificationFlagsSuffice(const QByteArray& flags);
// Why the reply to CONFIG GET notify-keyspace-events keeps a master from the live mode ("keyspace
// notifications are off", ...); empty when its flags suffice.
QString notificationConfigProblem(const RedisReply& reply);
// `flags` with what LockScope needs added (what an explicit "enable" writes back).
QByteArray notificationFlagsWithNeeded(const QByteArray& flags);

} // namespace lockscope
