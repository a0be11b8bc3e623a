// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "metrics/httpguardcounts.h"
#include "metrics/metricsinput.h"

#include <QByteArray>
#include <QByteArrayList>

namespace lockscope {

// The /metrics page of `lockctl serve` (docs/manual/prometheus.md, "The metrics"): a pure function of
// what the monitor sees, so that it is tested without servers.
//
// Per-lock series are bounded: at most `maxLockSeries` locks get them, the worst first (stuck,
// contested, partial, unknown, then held; older before younger), and the others are counted in
// lockscope_lock_series_dropped. Resource names are server bytes: escapeBytes() makes them text,
// then the label escaping of the format applies, so a binary key still gives valid output.
namespace MetricsRenderer {

QByteArray render(const MetricsInput& input);
// The HTTP guard's counters, added when the page is served (they live on the server's thread).
QByteArray httpGuard(const HttpGuardCounts& counts);
// The last family of the page, added when it is served: how old render()'s values are.
QByteArray pageAge(double seconds);
// Every metric family render() can emit (what the shipped dashboard and rules may refer to).
QByteArrayList familyNames();
// The Content-Type of render()'s output.
inline QByteArray contentType()
{
    return "text/plain; version=0.0.4; charset=utf-8";
}

} // namespace MetricsRenderer

} // namespace lockscope
