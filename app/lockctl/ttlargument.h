#pragma once

#include <QCommandLineOption>
#include <QString>

#include <optional>

namespace lockctl {

// --ttl MS as every writing command takes it: a whole, positive number of milliseconds up to
// 2^31-1. "10s", "1e4", "0", "-5" and "" are usage errors, never silently rounded.
class TtlArgument
{
public:
    static QCommandLineOption option();
    // The TTL, or nothing with `problem` set.
    static std::optional<qint64> parse(const QString& text, QString* problem);
    // The same rules for other whole-number options: from `min` to `max`.
    static std::optional<qint64> parseWhole(const QString& name, const QString& text, qint64 min, qint64 max,
                                            QString* problem);
};

} // namespace lockctl
