// SPDX-License-Identifier: Apache-2.0
#include "trace/tracefilter.h"

namespace lockscope {

TraceFilter::TraceFilter(const QByteArrayList& keys) : m_keys(keys.cbegin(), keys.cend()) {}

bool TraceFilter::carriesSecret(const MonitorLine& line)
{
    const QByteArray command = line.command();
    if (command == "AUTH" || command == "HELLO" || command == "ACL")
        return true;
    if (command == "MIGRATE")
        return true; // AUTH / AUTH2 among its arguments
    if (command == "CONFIG" && line.args.size() > 1 && line.args.at(1).toUpper() == "SET")
        return true; // requirepass, masterauth
    return false;
}

QByteArrayList TraceFilter::lockKeysOf(const MonitorLine& line) const
{
    QByteArrayList out;
    const QByteArray command = line.command();
    if (MonitorLine::isScript(command)) {
        // EVAL body|sha numkeys key... arg...: only KEYS count (an ARGV equal to a key name is data).
        if (line.args.size() < 3)
            return out;
        bool ok = false;
        const qint64 count = line.args.at(2).toLongLong(&ok);
        if (!ok || count < 0)
            return out;
        for (qint64 i = 0; i < count && 3 + i < line.args.size(); ++i)
            if (m_keys.contains(line.args.at(int(3 + i))))
                out << line.args.at(int(3 + i));
        return out;
    }
    // Where a command names its keys: every argument for the multi-key ones, every other one for
    // MSET, else the first (the commands lock libraries send). A value spelled like the lock's name
    // is another key's business, never the tracer's.
    static const QSet<QByteArray> allKeys{"DEL",  "UNLINK",    "EXISTS",     "TOUCH",       "WATCH",
                                          "MGET", "SUBSCRIBE", "SSUBSCRIBE", "UNSUBSCRIBE", "SUNSUBSCRIBE"};
    const auto take = [&](qsizetype i) {
        if (i < line.args.size() && m_keys.contains(line.args.at(i)) && !out.contains(line.args.at(i)))
            out << line.args.at(i);
    };
    if (allKeys.contains(command)) {
        for (qsizetype i = 1; i < line.args.size(); ++i)
            take(i);
    } else if (command == "MSET" || command == "MSETNX") {
        for (qsizetype i = 1; i < line.args.size(); i += 2)
            take(i);
    } else {
        take(1);
    }
    return out;
}

std::optional<MonitorLine> TraceFilter::keep(MonitorLine line) const
{
    if (line.args.isEmpty() || carriesSecret(line) || lockKeysOf(line).isEmpty())
        return std::nullopt;
    return line;
}

} // namespace lockscope
