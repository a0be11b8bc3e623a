#pragma once

#include "monitor/lockview.h"

#include <string>
#include <string_view>

namespace lockscope {

class MasterSet;

// LockJson::lock() written straight into a buffer, byte for byte what QJsonDocument::toJson(Compact)
// makes of that object (members in its order, the same escapes), for output that streams a million
// locks without building a QJsonObject for each.
class LockJsonWriter
{
public:
    // `diagnosis`: the JSON text of the lock's "diagnosis" member, written in its place; none when empty.
    static void appendLock(std::string& out, const LockView& view, const MasterSet& masters, qint64 nowMs,
                           std::string_view diagnosis = {});
};

} // namespace lockscope
