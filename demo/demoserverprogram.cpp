// SPDX-License-Identifier: Apache-2.0
#include "demo/demoserverprogram.h"

#include <QStandardPaths>

namespace lockscope {

QString demoServerProgram()
{
    const QString redis = QStringLiteral("redis-server");
    const QString valkey = QStringLiteral("valkey-server");
    if (QStandardPaths::findExecutable(redis).isEmpty() && !QStandardPaths::findExecutable(valkey).isEmpty())
        return valkey;
    return redis;
}

} // namespace lockscope
