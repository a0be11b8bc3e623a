// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>

namespace lockscope {

// One line of CLIENT LIST: the fields a diagnosis matches an owner with.
struct ClientListEntry
{
    qint64 id = -1;
    QByteArray name;
    QByteArray address;     // addr=ip:port
    QByteArray libraryName; // lib-name= and lib-ver= (Redis 7.2+, Valkey 8)
    QByteArray libraryVersion;
    qint64 ageS = -1;
    qint64 idleS = -1;

    // Every line of a CLIENT LIST reply ("id=3 addr=127.0.0.1:5 ... name=x age=1 idle=0 ...").
    static QList<ClientListEntry> parse(const QByteArray& reply);
};

} // namespace lockscope
