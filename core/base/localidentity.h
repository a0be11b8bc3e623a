#pragma once

#include <QString>

namespace lockscope {

// Who is acting on this machine: the audit log records it, and tokens may carry it so that a
// monitor can say who holds a lock.
class LocalIdentity
{
public:
    static QString user();
    static QString host();
    static qint64 pid();
    // "user@host:pid", the default owner prefix of our tokens.
    static QString ownerTag();
};

} // namespace lockscope
