#pragma once

#include <QString>

#include <optional>

namespace lockctl {

// A span of time as `history --since` and `record --max-age` take it: a whole number and a unit,
// "500ms", "90s", "15m", "2h", "7d". A bare number or another unit is a usage error (is "30" seconds
// or days?).
class DurationArgument
{
public:
    // Milliseconds, or nothing with `problem` set; `what` names the option in the message.
    static std::optional<qint64> parse(const QString& what, const QString& text, QString* problem);
};

} // namespace lockctl
