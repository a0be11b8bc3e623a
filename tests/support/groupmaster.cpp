// SPDX-License-Identifier: Apache-2.0
#include "support/groupmaster.h"

#include "config/configloader.h"

namespace lockscope::test {

ConnectionOptions groupMaster(const QString& url, int timeoutMs)
{
    Result<ConnectionOptions> options = ConfigLoader::masterFromUrl(url, {}, timeoutMs);
    if (!options)
        qFatal("bad test URL: %s", qPrintable(options.error().message));
    return *options;
}

} // namespace lockscope::test
