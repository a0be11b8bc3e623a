// SPDX-License-Identifier: Apache-2.0
#include "trace/keywrite.h"

#include <limits>
#include <optional>

namespace lockscope {

namespace {

constexpr qint64 maxUs = std::numeric_limits<qint64>::max() / 4;

KeyWrite writeOf(KeyWrite::Kind kind, const QByteArray& value = {})
{
    KeyWrite w;
    w.kind = kind;
    w.value = value;
    return w;
}

// A whole number of `unitUs` from `text`, in µs, or nullopt; clamped far beyond any lease.
std::optional<qint64> writeMicros(const QByteArray& text, qint64 unitUs)
{
    bool ok = false;
    const qint64 n = text.toLongLong(&ok);
    if (!ok)
        return std::nullopt;
    if (n > maxUs / unitUs)
        return maxUs;
    if (n < -maxUs / unitUs)
        return -maxUs;
    return n * unitUs;
}

// An expiry `relative` (a TTL) or absolute (a Unix time), in µs on the master's clock.
KeyWrite expiring(KeyWrite write, std::optional<qint64> amountUs, bool absolute, qint64 us)
{
    if (!amountUs)
        return KeyWrite{};
    write.expiresAtUs = absolute ? *amountUs : us + *amountUs;
    return write;
}

KeyWrite setWrite(const QByteArrayList& args, qint64 us)
{
    if (args.size() < 3)
        return {};
    KeyWrite w = writeOf(KeyWrite::Kind::Set, args.at(2));
    for (qsizetype i = 3; i < args.size(); ++i) {
        const QByteArray option = args.at(i).toUpper();
        const bool hasNumber = i + 1 < args.size();
        if (option == "NX")
            w.kind = KeyWrite::Kind::SetIfAbsent;
        else if (option == "XX")
            w.kind = KeyWrite::Kind::SetIfPresent;
        else if (option == "KEEPTTL")
            w.keepTtl = true;
        else if (hasNumber && (option == "EX" || option == "PX" || option == "EXAT" || option == "PXAT")) {
            const qint64 unit = option.startsWith("E") ? 1000000 : 1000;
            const std::optional<qint64> amount = writeMicros(args.at(++i), unit);
            if (!amount)
                return {}; // the server refused it: nothing was written
            w.expiresAtUs = option.endsWith("AT") ? *amount : us + *amount;
        }
    }
    return w;
}

} // namespace

KeyWrite KeyWrite::of(const QByteArrayList& args, qint64 us)
{
    if (args.size() < 2)
        return {};
    const QByteArray command = args.first().toUpper();
    const auto arg = [&args](qsizetype i) { return i < args.size() ? args.at(i) : QByteArray(); };
    if (command == "SET")
        return setWrite(args, us);
    if (command == "SETNX" && args.size() >= 3)
        return writeOf(Kind::SetIfAbsent, args.at(2));
    if ((command == "SETEX" || command == "PSETEX") && args.size() >= 4)
        return expiring(writeOf(Kind::Set, args.at(3)),
                        writeMicros(args.at(2), command == "SETEX" ? 1000000 : 1000), false, us);
    if (command == "GETSET" && args.size() >= 3)
        return writeOf(Kind::Set, args.at(2));
    if (command == "DEL" || command == "UNLINK" || command == "GETDEL")
        return writeOf(Kind::Delete);
    if (command == "EXPIRE" || command == "PEXPIRE" || command == "EXPIREAT" || command == "PEXPIREAT") {
        const KeyWrite w =
            expiring(writeOf(Kind::Expire), writeMicros(arg(2), command.startsWith("P") ? 1000 : 1000000),
                     command.endsWith("AT"), us);
        // A time already past deletes the key.
        if (w.kind == Kind::Expire && w.expiresAtUs <= us)
            return writeOf(Kind::Delete);
        return w;
    }
    if (command == "PERSIST")
        return writeOf(Kind::Persist);
    if (command == "GETEX" && args.size() >= 3) {
        const QByteArray option = args.at(2).toUpper();
        if (option == "PERSIST")
            return writeOf(Kind::Persist);
        const qint64 unit = option.startsWith("E") ? 1000000 : 1000;
        return expiring(writeOf(Kind::Expire), writeMicros(arg(3), unit), option.endsWith("AT"), us);
    }
    if ((command == "HSET" || command == "HSETNX") && args.size() >= 4)
        return writeOf(Kind::HashEnter, args.at(2));
    if (command == "HINCRBY" && args.size() >= 4) {
        bool ok = false;
        const qint64 by = args.at(3).toLongLong(&ok);
        if (!ok)
            return {};
        return {by > 0 ? Kind::HashEnter : Kind::HashLeave, args.at(2)};
    }
    if (command == "HDEL" && args.size() >= 3)
        return writeOf(Kind::HashLeave, args.at(2));
    return {};
}

} // namespace lockscope
