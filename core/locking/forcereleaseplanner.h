// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/comparedelete.h"
#include "locking/forcereleaseplan.h"

namespace lockscope {

// Decides, from what inspect() read on one master, what a force-release does there
// (ForceReleaseStep), and turns that step into the arguments of RedlockScripts::forceRelease().
// Both the preview (dialog, lockctl) and the execution come from here, so they cannot differ:
// the script either sends exactly the step's commands or, when the master no longer holds what
// the step was decided on, nothing at all.
//
// Redisson's layouts (hash per lock, its channels and messages, the fair lock's queue keys) are
// taken from Redisson's own source; tests/data/redisson-layouts.json names the version.
namespace ForceReleasePlanner {

ForceReleaseStep plan(const ForceReleaseRequest& request, const ForceReleaseTarget& target);

QByteArrayList scriptKeys(const ForceReleaseRequest& request, const ForceReleaseTarget& target);
QByteArrayList scriptArgs(const ForceReleaseRequest& request, const ForceReleaseTarget& target,
                          qint64 nowWallMs);

// The master's own compare-and-delete command (`how`: its handshake's answer) for a guarded
// delete of a plain string lock whose plan is that one DEL: it deletes only while the key holds the
// token the admin saw, as the script does, in one command. Empty where the script is needed (any
// other layout or step, --any-token, or a server without such a command).
QByteArrayList compareDelete(const ForceReleaseRequest& request, const ForceReleaseTarget& target,
                             CompareDelete how);

// Redisson's prefixName() and suffixName(): the name is braced unless it already has a brace.
QByteArray redissonPrefixed(const QByteArray& prefix, const QByteArray& name);
QByteArray redissonSuffixed(const QByteArray& name, const QByteArray& suffix);
// The channel a Redisson lock's waiters listen on: redisson_rwlock:{name} for a read-write
// lock, redisson_lock__channel:{name} otherwise (a fair lock adds ":<waiter id>").
QByteArray redissonChannel(const QByteArray& name, bool readWrite);

} // namespace ForceReleasePlanner

} // namespace lockscope
