// SPDX-License-Identifier: Apache-2.0
#include "support/serverflavour.h"

#include <QtGlobal>

namespace lockscope::test {

ServerFlavour serverFlavour()
{
    static const ServerFlavour flavour = [] {
        const QByteArray name = qgetenv("LOCKSCOPE_SERVER");
        if (name.isEmpty() || name == "redis")
            return ServerFlavour::Redis;
        if (name == "valkey")
            return ServerFlavour::Valkey;
        qFatal("LOCKSCOPE_SERVER=%s: the tests know \"redis\" and \"valkey\"", name.constData());
    }();
    return flavour;
}

QString serverProgram()
{
    return serverFlavour() == ServerFlavour::Valkey ? QStringLiteral("valkey-server")
                                                    : QStringLiteral("redis-server");
}

} // namespace lockscope::test
