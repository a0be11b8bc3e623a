// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "trace/monitorline.h"

#include <QByteArrayList>
#include <QSet>

#include <optional>

namespace lockscope {

// Which of MONITOR's lines the lock tracer keeps: those whose command touches one of the lock's
// keys (the key itself and its format's auxiliary keys), scripts that name one in KEYS among them.
// Everything else is dropped at once, and never stored, shown or logged: another key's command and
// value are none of the tracer's business. A credential-bearing command (AUTH, HELLO, MIGRATE with
// AUTH, CONFIG SET of a password) is dropped whatever its keys, even though servers redact it.
class TraceFilter
{
public:
    explicit TraceFilter(const QByteArrayList& keys);

    // The line if it is about the lock, else nothing.
    std::optional<MonitorLine> keep(MonitorLine line) const;
    // The keys among `line`'s that are the lock's: a script's KEYS, a command's key arguments (the
    // first, or all of a multi-key command's), never a value.
    QByteArrayList lockKeysOf(const MonitorLine& line) const;
    // A command that may carry a secret (its arguments are never looked at).
    static bool carriesSecret(const MonitorLine& line);

private:
    QSet<QByteArray> m_keys;
};

} // namespace lockscope
