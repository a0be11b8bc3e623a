// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "monitor/failoverreport.h"

#include <QString>

namespace lockscope {

// The sentences of a master's failover and restart, said alike by the window's event log and
// `lockctl watch` (each frames them in its own line). Server bytes are escaped here.
namespace MasterEventText {

// "127.0.0.1:6379 → 127.0.0.1:6380: 2 lock(s) at risk until the new primary is read"
QString failoverDetected(const PrimaryChange& change, int atRisk);
// The failover's report, once the new primary has been read: the locks it lost ("a, b", or "none"),
// and those it holds under another token ("a (before → after), ...", or "none").
QString lostLocks(const FailoverReport& report);
QString changedTokens(const FailoverReport& report);
// A master's run_id changed: "run_id changed: locks it held may be lost".
QString restarted();
// The same of one primary of a cluster: "primary host:port: run_id changed: ...".
QString primaryRestarted(const NodeAddress& primary);

} // namespace MasterEventText

} // namespace lockscope
