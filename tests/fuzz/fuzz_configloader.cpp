// SPDX-License-Identifier: Apache-2.0
// ConfigLoader::fromJson on arbitrary bytes: a configuration is accepted whole or refused with a
// message, and every accepted master has a URL that parses back.
#include "config/configloader.h"
#include "connection/redisurl.h"
#include "connection/topologyurl.h"

#include <cstdlib>

using namespace lockscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char*>(data), qsizetype(size));
    QStringList warnings;
    Result<LockScopeConfig> config = ConfigLoader::fromJson(json, &warnings, QStringLiteral("fuzz.json"));
    if (!config) {
        if (config.error().message.isEmpty())
            std::abort();
        return 0;
    }
    if (config->timeoutMs <= 0 || config->monitor.patterns.isEmpty() || config->monitor.maxFields <= 0)
        std::abort(); // the loader promises these
    for (const ConnectionOptions& master : config->masters) {
        // A Sentinel entry has no URL until the sentinels name its primary: its group URL must parse back.
        if (master.topology ? !TopologyUrl::parse(master.topology->toString())
                            : !RedisUrl::parse(master.url.toString()))
            std::abort();
    }
    return 0;
}
