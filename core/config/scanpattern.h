// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace lockscope {

// What a scan pattern says about the keys it matches (docs/manual/configuration.md, "Pattern modes").
enum class PatternMode
{
    // Every key it matches is a lock: a key of no recognised format is shown raw, and one without
    // a TTL is stuck. The default patterns, and legacy SETNX users who name their lock keys.
    Locks,
    // Find locks among these keys: only the shapes lock libraries write are shown (PatternScope);
    // every other key is not a lock and is left out.
    Discover,
    // Every key it matches is a fencing counter (an INCR key whose value each grant raises): not a
    // lock, but read and recorded, and a value that goes down is a fencing regression. Redisson's
    // fenced-lock counters are known by name under any pattern.
    Fencing,
};

// "locks", "discover", "fencing": the config file's "mode" and what lockctl prints.
QString patternModeName(PatternMode mode);
std::optional<PatternMode> patternModeFromName(const QString& name);

// One key glob that discovery SCANs for (Redis glob syntax: * ? [abc] [^a] [a-z] \x), with its mode.
struct ScanPattern
{
    QByteArray match;
    PatternMode mode = PatternMode::Locks;

    ScanPattern() = default;
    // Implicit: a plain glob keeps the meaning it always had, "every key here is a lock".
    ScanPattern(QByteArray glob, PatternMode m = PatternMode::Locks) : match(std::move(glob)), mode(m) {}
    ScanPattern(const char* glob) : match(glob) {}

    bool operator==(const ScanPattern&) const = default;

    // What LockScope scans when nothing else is configured (docs/manual/configuration.md): the key
    // layouts lock libraries and hand-rolled locks use, every key there a lock, and *lock* to
    // discover the locks whose libraries take the name as given (Redisson, redsync, node-redlock,
    // redis-py) among keys such as clock:, block: or unlocked_users that are no locks.
    static QList<ScanPattern> defaults();

    // "lock:*", "* (discover)" or "fence:* (fencing)": escaped, as every key text is.
    QString toString() const;
    static QString listText(const QList<ScanPattern>& patterns);
};

} // namespace lockscope
