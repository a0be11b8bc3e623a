// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

namespace lockscope {

// Who is acting on this machine: the audit log records it, and tokens may carry it so that a
// monitor can say who holds a lock.
namespace LocalIdentity {

QString user();
QString host();
qint64 pid();
// "user@host:pid", the default owner prefix of our tokens.
QString ownerTag();

} // namespace LocalIdentity

} // namespace lockscope
