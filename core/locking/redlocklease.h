// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QMetaType>

namespace lockscope {

// A lock we hold (or believe we hold) across the masters, and until when that belief is safe.
struct RedlockLease
{
    QByteArray resource;
    QByteArray token;
    qint64 ttlMs = 0;
    qint64 validityMs = 0;   // ttl - elapsed - drift, at the moment the quorum was reached
    qint64 startedAtNs = 0;  // monotonic ns when the successful round began
    qint64 validUntilNs = 0; // monotonic ns; 0 when unknown (a lease rebuilt from a token alone)

    bool validityKnown() const { return validUntilNs != 0; }
    // Milliseconds of validity left at `nowNs` (monotonic); negative once it has run out.
    qint64 remainingMs(qint64 nowNs) const { return (validUntilNs - nowNs) / 1000000; }
    bool isValidAt(qint64 nowNs) const { return !validityKnown() || nowNs < validUntilNs; }
};

} // namespace lockscope

Q_DECLARE_METATYPE(lockscope::RedlockLease)
