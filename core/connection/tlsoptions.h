// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

// TLS settings for rediss:// masters. Verification is on unless `insecure` is set explicitly.
struct TlsOptions
{
    QString caFile;     // PEM bundle; empty means the system's trust store
    QString certFile;   // client certificate (PEM), optional
    QString keyFile;    // its private key (PEM), optional
    QString serverName; // name to verify; empty means the URL's host
    bool insecure = false;

    bool operator==(const TlsOptions&) const = default;
};

} // namespace lockscope
