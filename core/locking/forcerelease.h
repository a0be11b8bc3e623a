// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "config/lockscopeconfig.h"
#include "locking/forcereleaseoutcome.h"
#include "locking/forcereleaseplan.h"

#include <functional>

namespace lockscope {

class AuditLog;
class MasterSet;

// The administrator's way out of a stuck lock, in two steps so that a person can look before
// anything is deleted: inspect() reads the key on the chosen masters (KeyReader) and decodes it
// (LockFormatRecognizer); execute() deletes it with one atomic Lua script per master that
// dispatches on TYPE and does what the owning library's own release would do:
//   - plain string locks: DEL (python-redis-lock: also LPUSH 1 + PEXPIRE 1000 on lock-signal:<name>);
//     guarded, on a server with its own compare-and-delete (Valkey 9's DELIFEQ, Redis 8.4's DELEX
//     IFEQ), that one command instead of the script, which runs only if it deleted nothing;
//   - Redisson hashes: DEL and PUBLISH 0 on redisson_lock__channel:{name}, waking its waiters;
//   - redis-semaphore zsets: ZREM of the one holder, never the whole semaphore.
// Guarded (ExpectToken) mode deletes only where the token is still the expected one, so a lock
// that changed hands in the meantime is spared. Like every write it goes through a WriteGate:
// refused in read-only mode (audited) and when the audit log cannot be written (nothing sent, so
// nothing to audit); refused too, unless forceUnknown, for keys not recognised as locks. Every
// other attempt is audited.
namespace ForceRelease {

using Inspected = std::function<void(const ForceReleasePlan& plan)>;
using Done = std::function<void(const ForceReleaseOutcome& outcome)>;

// Callbacks run later from the event loop, never inside these calls.
void inspect(MasterSet& masters, const LockScopeConfig& config, const ForceReleaseRequest& request,
             Inspected done);
void execute(MasterSet& masters, const LockScopeConfig& config, const AuditLog* audit,
             const ForceReleasePlan& plan, Done done);
// inspect() then execute(), for callers that need no confirmation step.
void run(MasterSet& masters, const LockScopeConfig& config, const AuditLog* audit,
         const ForceReleaseRequest& request, Done done);

// The audit line for a force-release that was inspected but not confirmed (`why` says by whom).
RedisError recordCancelled(const AuditLog& audit, const MasterSet& masters, const ForceReleasePlan& plan,
                           const QString& why);

// Redisson's channel for a lock name: its prefixName() braces the name unless it has braces.
QByteArray redissonChannel(const QByteArray& name);

} // namespace ForceRelease

} // namespace lockscope
