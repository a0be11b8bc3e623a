// SPDX-License-Identifier: Apache-2.0
#include "demo/democonfig.h"

#include "config/configloader.h"

namespace lockscope {

Result<LockScopeConfig> demoConfig(const QStringList& urls)
{
    LockScopeConfig config;
    config.timeoutMs = 500;
    config.monitor.reconcileIntervalMs = 5000;
    for (const QString& url : urls) {
        Result<ConnectionOptions> m = ConfigLoader::masterFromUrl(url, TlsOptions(), config.timeoutMs);
        if (!m)
            return m.error();
        m->healthIntervalMs = 250;
        m->reconnectMaxMs = 1000;
        config.masters << *m;
    }
    return config;
}

} // namespace lockscope
