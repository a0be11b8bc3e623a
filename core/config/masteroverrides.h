// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/connectionoptions.h"

#include <QString>

#include <optional>

namespace lockscope {

// What the command line says about every master (--timeout-ms, --tls-ca, --tls-cert, --tls-key,
// --tls-insecure), kept so that it applies alike to the masters of a --config file and to those
// of a connection profile chosen later in the window. Each option given replaces that one setting
// on every master; one not given leaves the master's own.
struct MasterOverrides
{
    std::optional<int> timeoutMs;
    QString caFile;
    QString certFile;
    QString keyFile;
    bool insecure = false;

    void applyTo(ConnectionOptions& master) const
    {
        if (timeoutMs)
            master.commandTimeoutMs = master.connectTimeoutMs = *timeoutMs;
        if (!caFile.isEmpty())
            master.tls.caFile = caFile;
        if (!certFile.isEmpty())
            master.tls.certFile = certFile;
        if (!keyFile.isEmpty())
            master.tls.keyFile = keyFile;
        if (insecure)
            master.tls.insecure = true;
    }
};

} // namespace lockscope
