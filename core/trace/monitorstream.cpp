// SPDX-License-Identifier: Apache-2.0
#include "trace/monitorstream.h"

#include <chrono>

namespace lockscope {

namespace {

constexpr qsizetype maxNamedClients = 10000;
constexpr int timeSampleEvery = 64;

// Where the arguments start: after the "] " that ends the line's client field (an IPv6 client,
// "[0 [::1]:5]", has a ']' of its own; arguments always start with a quote); -1 when there is none.
qsizetype argumentsAt(QByteArrayView raw)
{
    const qsizetype open = raw.indexOf('[');
    if (open < 0)
        return -1;
    const qsizetype close = raw.indexOf(QByteArrayView("] \""), open);
    return close < 0 ? -1 : close + 2;
}

} // namespace

MonitorStream::MonitorStream(const QByteArrayList& keys, Handler handler)
    : m_filter(keys), m_handler(std::move(handler))
{
    for (const QByteArray& key : keys)
        m_matchers.emplace_back(quoted(key));
}

QByteArray MonitorStream::quoted(QByteArrayView arg)
{
    static const char hex[] = "0123456789abcdef";
    QByteArray out;
    out.reserve(arg.size() + 2);
    out += '"';
    for (const char c : arg) {
        switch (c) {
        case '\\':
            out += "\\\\";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\a':
            out += "\\a";
            break;
        case '\b':
            out += "\\b";
            break;
        default:
            if (c >= 0x20 && c <= 0x7e) {
                out += c;
            } else {
                out += "\\x";
                out += hex[uchar(c) >> 4];
                out += hex[uchar(c) & 0xf];
            }
        }
    }
    out += '"';
    return out;
}

bool MonitorStream::mentionsLockKey(QByteArrayView raw) const
{
    for (const QByteArrayMatcher& m : m_matchers)
        if (m.indexIn(raw) >= 0)
            return true;
    return false;
}

bool MonitorStream::isScriptCall(QByteArrayView raw, qsizetype argumentsAt)
{
    return argumentsAt >= 6 && raw.sliced(0, argumentsAt - 2).endsWith(" lua");
}

bool MonitorStream::isClientCommand(QByteArrayView raw, qsizetype argumentsAt)
{
    if (argumentsAt < 0 || raw.size() < argumentsAt + 9)
        return false;
    return raw.sliced(argumentsAt, 9).compare(QByteArrayView("\"client\" "), Qt::CaseInsensitive) == 0;
}

void MonitorStream::sampleTime(QByteArrayView raw)
{
    qint64 seconds = 0;
    qsizetype at = raw.startsWith('+') ? 1 : 0;
    for (; at < raw.size() && raw[at] >= '0' && raw[at] <= '9' && seconds < 1'000'000'000'000; ++at)
        seconds = seconds * 10 + (raw[at] - '0');
    if (at >= raw.size() || raw[at] != '.')
        return;
    qint64 micros = 0;
    int digits = 0;
    for (++at; at < raw.size() && raw[at] >= '0' && raw[at] <= '9' && digits < 6; ++at, ++digits)
        micros = micros * 10 + (raw[at] - '0');
    if (digits == 6)
        noteTime(seconds * 1000000 + micros);
}

void MonitorStream::noteTime(qint64 serverUs)
{
    const qint64 localUs = std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
    m_counts.lastServerUs = serverUs;
    m_counts.offsetUs = localUs - serverUs;
    m_counts.minOffsetUs = qMin(m_counts.minOffsetUs, m_counts.offsetUs);
}

void MonitorStream::feed(const QByteArray& raw)
{
    ++m_counts.lines;
    m_counts.bytes += raw.size() + 3; // '+' ... CRLF
    if (m_counts.lines % timeSampleEvery == 1)
        sampleTime(raw);
    const qsizetype at = argumentsAt(raw);
    const bool call = isScriptCall(raw, at);
    // Any line but a script's own call ends the script before it: its calls are all in.
    if (!call && m_script)
        finish();
    const bool named = !call && isClientCommand(raw, at);
    if (!named && (at < 0 || !mentionsLockKey(QByteArrayView(raw).sliced(at))))
        return;
    ++m_counts.parsed;
    Result<MonitorLine> line = MonitorLineParser::parse(raw);
    if (!line) {
        ++m_counts.malformed;
        return;
    }
    noteTime(line->timeUs);
    if (named) {
        noteClientName(*line);
        return;
    }
    if (TraceFilter::carriesSecret(*line))
        return;
    if (call) {
        // A call on the lock's keys: the open script's, else a script that did not name them in
        // KEYS (its line was dropped) and is handed over on its own.
        if (m_filter.lockKeysOf(*line).isEmpty())
            return;
        if (m_script) {
            m_calls << std::move(*line);
        } else {
            ++m_counts.kept;
            m_handler(*line, {});
        }
        return;
    }
    std::optional<MonitorLine> kept = m_filter.keep(std::move(*line));
    if (!kept)
        return;
    if (MonitorLine::isScript(kept->command())) {
        m_script = std::move(kept);
        return;
    }
    ++m_counts.kept;
    m_handler(*kept, {});
}

void MonitorStream::finish()
{
    if (!m_script)
        return;
    const MonitorLine script = std::move(*m_script);
    const QList<MonitorLine> calls = std::move(m_calls);
    m_script.reset();
    m_calls.clear();
    ++m_counts.kept;
    m_handler(script, calls);
}

void MonitorStream::noteClientName(const MonitorLine& line)
{
    // CLIENT SETNAME name | CLIENT SETINFO LIB-NAME x | CLIENT SETINFO LIB-VER y
    if (line.args.size() < 3 || line.fromScript() ||
        (m_named.size() >= maxNamedClients && !m_named.contains(line.client)))
        return;
    const QByteArray sub = line.args.at(1).toUpper();
    TraceClient& c = m_named[line.client];
    c.address = line.client;
    if (sub == "SETNAME") {
        c.name = line.args.at(2);
    } else if (sub == "SETINFO" && line.args.size() >= 4) {
        const QByteArray attribute = line.args.at(2).toUpper();
        if (attribute == "LIB-NAME")
            c.libraryName = line.args.at(3);
        else if (attribute == "LIB-VER")
            c.libraryVersion = line.args.at(3);
    }
}

} // namespace lockscope
