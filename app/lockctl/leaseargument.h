#pragma once

#include "locking/redlocklease.h"

#include <QString>

#include <optional>

namespace lockctl {

// RESOURCE and --token of extend and release, both in the escaped form list prints: the lease they
// name, or nothing with `problem` set (the first bad argument).
class LeaseArgument
{
public:
    static std::optional<lockscope::RedlockLease> parse(const QString& resource, const QString& token,
                                                        QString* problem);
};

} // namespace lockctl
