// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "trace/monitorline.h"
#include "trace/tracedcommand.h"
#include "trace/tracefilter.h"

#include <QByteArrayList>
#include <QByteArrayMatcher>
#include <QHash>
#include <QList>

#include <functional>
#include <limits>
#include <optional>
#include <vector>

namespace lockscope {

// One master's MONITOR stream, cut down to the lock's commands. It is the tracer's hot path: a
// master serving 50k commands a second sends 50k lines, nearly all about other keys. A line that
// does not contain one of the lock's keys as the server quotes it ("lock:x" with its quotes) is
// counted and dropped unparsed; the rest is parsed, and kept only when a command names the lock's
// keys (TraceFilter). A script's own calls come right after its line ([0 lua]) and go with it: the
// script is handed over once the next line (or finish()) shows its calls are complete.
//
// The client names that lines of CLIENT SETNAME and CLIENT SETINFO tell are kept too (a client that
// comes and goes before a CLIENT LIST could name it is still named).
class MonitorStream
{
public:
    using Handler = std::function<void(const MonitorLine& command, const QList<MonitorLine>& scriptCalls)>;

    struct Counts
    {
        qint64 lines = 0;         // every line the master sent
        qint64 bytes = 0;         // their bytes on the wire
        qint64 parsed = 0;        // lines that mentioned a lock key and were parsed
        qint64 kept = 0;          // commands handed over
        qint64 malformed = 0;     // lines that were not MONITOR lines (never guessed at)
        qint64 lastServerUs = -1; // the master's time of a recent line
        // Our clock minus the master's, when a recent line came, and the smallest such difference
        // seen: a line that comes later than the first ones did shows the tracer falling behind.
        qint64 offsetUs = 0;
        qint64 minOffsetUs = std::numeric_limits<qint64>::max();

        qint64 lagUs() const { return lastServerUs < 0 ? 0 : offsetUs - minOffsetUs; }
    };

    MonitorStream(const QByteArrayList& keys, Handler handler);

    // One line, as RedisConnection::monitorLine() gives it.
    void feed(const QByteArray& raw);
    // Nothing more is coming for now: an open script is complete.
    void finish();
    bool hasOpenScript() const { return m_script.has_value(); }

    const Counts& counts() const { return m_counts; }
    // What CLIENT SETNAME / SETINFO lines told of a connection.
    const QHash<QByteArray, TraceClient>& namedClients() const { return m_named; }

    // `arg` quoted as the server quotes arguments in MONITOR's lines (sdscatrepr).
    static QByteArray quoted(QByteArrayView arg);

private:
    bool mentionsLockKey(QByteArrayView raw) const;
    // `argumentsAt`: where the line's arguments start (after its client field), -1 when nowhere.
    static bool isScriptCall(QByteArrayView raw, qsizetype argumentsAt);
    static bool isClientCommand(QByteArrayView raw, qsizetype argumentsAt);
    void noteClientName(const MonitorLine& line);
    void sampleTime(QByteArrayView raw);
    void noteTime(qint64 serverUs);

    TraceFilter m_filter;
    Handler m_handler;
    std::vector<QByteArrayMatcher> m_matchers; // one per key, for its quoted form
    std::optional<MonitorLine> m_script;
    QList<MonitorLine> m_calls;
    QHash<QByteArray, TraceClient> m_named;
    Counts m_counts;
};

} // namespace lockscope
