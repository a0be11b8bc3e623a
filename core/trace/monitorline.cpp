// SPDX-License-Identifier: Apache-2.0
#include "trace/monitorline.h"

#include "formats/byteshapes.h"

namespace lockscope {

namespace {

RedisError malformed(const QString& why)
{
    return RedisError(ErrorKind::Protocol, QString(), QStringLiteral("not a MONITOR line: %1").arg(why));
}

using recognition::hexValue;
using recognition::isDigit;

// Reads digits at `at` into `value` (at most `maxDigits` of them, at least one); false when none.
bool readNumber(QByteArrayView line, qsizetype& at, int maxDigits, qint64* value)
{
    const qsizetype start = at;
    qint64 v = 0;
    while (at < line.size() && isDigit(line[at]) && at - start < maxDigits)
        v = v * 10 + (line[at++] - '0');
    if (at == start || (at < line.size() && isDigit(line[at])))
        return false;
    *value = v;
    return true;
}

// One quoted argument at `at` (on its opening quote), unescaped; `at` ends after its closing quote.
Result<QByteArray> readArgument(QByteArrayView line, qsizetype& at)
{
    if (at >= line.size() || line[at] != '"')
        return malformed(QStringLiteral("an argument does not start with a quote"));
    QByteArray out;
    for (++at; at < line.size(); ++at) {
        const char c = line[at];
        if (c == '"') {
            ++at;
            return out;
        }
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++at >= line.size())
            break;
        switch (line[at]) {
        case '\\':
            out += '\\';
            break;
        case '"':
            out += '"';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 'x': {
            const int high = at + 1 < line.size() ? hexValue(line[at + 1]) : -1;
            const int low = at + 2 < line.size() ? hexValue(line[at + 2]) : -1;
            if (high < 0 || low < 0)
                return malformed(QStringLiteral("a \\x escape without two hex digits"));
            out += char(high * 16 + low);
            at += 2;
            break;
        }
        default:
            return malformed(QStringLiteral("an unknown escape"));
        }
    }
    return malformed(QStringLiteral("an argument without its closing quote"));
}

} // namespace

Result<MonitorLine> MonitorLineParser::parse(QByteArrayView line)
{
    if (line.size() > maxLineBytes)
        return malformed(QStringLiteral("longer than %1 bytes").arg(maxLineBytes));
    qsizetype at = 0;
    if (!line.isEmpty() && line[0] == '+')
        ++at;
    MonitorLine out;
    qint64 seconds = 0;
    qint64 micros = 0;
    // The time: seconds (at most 12 digits: the year 33658), a dot, six digits of microseconds.
    if (!readNumber(line, at, 12, &seconds) || at >= line.size() || line[at] != '.')
        return malformed(QStringLiteral("no time"));
    ++at;
    const qsizetype microsAt = at;
    if (!readNumber(line, at, 6, &micros) || at - microsAt != 6)
        return malformed(QStringLiteral("no microseconds"));
    out.timeUs = seconds * 1000000 + micros;
    if (line.sliced(at).size() < 2 || line[at] != ' ' || line[at + 1] != '[')
        return malformed(QStringLiteral("no [db client]"));
    at += 2;
    qint64 db = 0;
    if (!readNumber(line, at, 5, &db) || at >= line.size() || line[at] != ' ')
        return malformed(QStringLiteral("no database number"));
    out.db = int(db);
    ++at;
    // The client: everything to the closing bracket (an IPv6 address has its own brackets:
    // "[::1]:6379", so the last "] " before the first quote closes it).
    const qsizetype quote = line.sliced(at).indexOf('"');
    const qsizetype end =
        quote < 0 ? line.sliced(at).lastIndexOf(']') : line.sliced(at, quote).lastIndexOf(']');
    if (end <= 0)
        return malformed(QStringLiteral("no client"));
    out.client = line.sliced(at, end).toByteArray();
    for (const char c : std::as_const(out.client))
        if (c < 0x21 || c > 0x7e)
            return malformed(QStringLiteral("a client name with bytes no address has"));
    at += end + 1;
    while (at < line.size()) {
        if (line[at] != ' ')
            return malformed(QStringLiteral("arguments not separated by a space"));
        ++at;
        Result<QByteArray> arg = readArgument(line, at);
        if (!arg)
            return arg.error();
        out.args << std::move(*arg);
    }
    if (out.args.isEmpty())
        return malformed(QStringLiteral("no command"));
    return out;
}

} // namespace lockscope
