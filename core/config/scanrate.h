// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <QString>

namespace lockscope {

// How fast discovery may scan a master (--scan-rate, "scanRate", the profile's field):
// - Auto (the default): paced against the server's own latency, so that other clients do not notice;
// - Limit: at most `keysPerSecond` keys a second, and slower when the server slows (as Auto);
// - Max: the first pass of a connection at full speed (no pacing), later passes as Auto.
struct ScanRate
{
    enum class Mode
    {
        Auto,
        Limit,
        Max
    };

    Mode mode = Mode::Auto;
    qint64 keysPerSecond = 0; // Limit only

    static ScanRate automatic() { return {}; }
    static ScanRate max() { return {Mode::Max, 0}; }
    static ScanRate limit(qint64 keysPerSecond) { return {Mode::Limit, keysPerSecond}; }

    // "auto", "max" or a number of keys a second ("5000", "5000/s" and "5k" too); the error is worded
    // for the person who typed it.
    static Result<ScanRate> parse(const QString& text);
    // The text parse() reads back: "auto", "max" or the number.
    QString toString() const;

    friend bool operator==(const ScanRate&, const ScanRate&) = default;
};

} // namespace lockscope
