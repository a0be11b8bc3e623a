#include "export/jsontext.h"

#include "base/bytesdisplay.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace lockscope {

namespace {

const char hexDigits[] = "0123456789abcdef";

// Writes `c` (below 0x80) at `p` as QJsonDocument does (at most 6 bytes); returns the end.
inline char* putAscii(char* p, char16_t c)
{
    if (c >= 0x20 && c != '"' && c != '\\') {
        *p++ = char(c);
        return p;
    }
    *p++ = '\\';
    switch (c) {
    case '"':
        *p++ = '"';
        break;
    case '\\':
        *p++ = '\\';
        break;
    case '\b':
        *p++ = 'b';
        break;
    case '\f':
        *p++ = 'f';
        break;
    case '\n':
        *p++ = 'n';
        break;
    case '\r':
        *p++ = 'r';
        break;
    case '\t':
        *p++ = 't';
        break;
    default:
        *p++ = 'u';
        *p++ = '0';
        *p++ = '0';
        *p++ = hexDigits[c >> 4];
        *p++ = hexDigits[c & 0xf];
    }
    return p;
}

// How many bytes putAscii() writes for `c`.
inline size_t asciiEscapedLength(char16_t c)
{
    if (c >= 0x20 && c != '"' && c != '\\')
        return 1;
    switch (c) {
    case '"':
    case '\\':
    case '\b':
    case '\f':
    case '\n':
    case '\r':
    case '\t':
        return 2;
    default:
        return 6;
    }
}

// `n` more bytes at the end of `out`; returns where they go.
inline char* makeRoom(std::string& out, size_t n)
{
    const size_t start = out.size();
    out.resize(start + n);
    return out.data() + start;
}

} // namespace

void JsonText::appendString(std::string& out, QStringView text)
{
    // One pass finds whether anything needs a closer look: nearly every text is ASCII with no
    // control characters, at most a few quotes and backslashes (a sentence per stuck lock naming
    // its escaped token, a million of them in a `list --json` of a big keyspace), and is then
    // written in one more pass into exactly the room it takes.
    const char16_t* const begin = text.utf16();
    const char16_t* const end = begin + text.size();
    char16_t high = 0;
    size_t controls = 0;
    size_t quoted = 0;
    for (const char16_t* c = begin; c != end; ++c) {
        high |= *c;
        controls += size_t(*c < 0x20);
        quoted += size_t(*c == '"') + size_t(*c == '\\');
    }
    if (high >= 0x80) {
        // Rare (an owner or a sentence beyond ASCII; keys and tokens are escapeBytes() text):
        // Qt's own writer then, so that lone surrogates and the like come out as they did.
        const QByteArray doc = QJsonDocument(QJsonArray{text.toString()}).toJson(QJsonDocument::Compact);
        out.append(doc.constData() + 1, size_t(doc.size() - 2));
        return;
    }
    if (controls == 0) {
        char* p = makeRoom(out, size_t(text.size()) + quoted + 2);
        *p++ = '"';
        for (const char16_t* c = begin; c != end; ++c) {
            if (*c == '"' || *c == '\\')
                *p++ = '\\';
            *p++ = char(*c);
        }
        *p = '"';
        return;
    }
    size_t length = 2;
    for (const char16_t* c = begin; c != end; ++c)
        length += asciiEscapedLength(*c);
    char* p = makeRoom(out, length);
    *p++ = '"';
    for (const char16_t* c = begin; c != end; ++c)
        p = putAscii(p, *c);
    *p = '"';
}

void JsonText::appendBytes(std::string& out, const QByteArray& bytes)
{
    // Bytes below 0x80 are what escapeBytes() keeps or turns into \xNN and \\ one for one, so the
    // JSON of its text is written from them directly; UTF-8 beyond ASCII needs its judgement.
    size_t length = 2;
    for (const char c : bytes) {
        const uchar u = uchar(c);
        if (u >= 0x80) {
            appendString(out, escapeBytes(bytes));
            return;
        }
        length += u < 0x20 || u == 0x7f ? 5 : u == '\\' ? 4 : u == '"' ? 2 : 1;
    }
    char* p = makeRoom(out, length);
    *p++ = '"';
    for (const char c : bytes) {
        const uchar u = uchar(c);
        if (u < 0x20 || u == 0x7f) {
            // escapeBytes' \xNN, its backslash escaped for JSON.
            *p++ = '\\';
            *p++ = '\\';
            *p++ = 'x';
            *p++ = hexDigits[u >> 4];
            *p++ = hexDigits[u & 0xf];
        } else if (u == '\\') {
            for (int k = 0; k < 4; ++k)
                *p++ = '\\';
        } else {
            if (u == '"')
                *p++ = '\\';
            *p++ = char(u);
        }
    }
    *p = '"';
}

void JsonText::appendNumber(std::string& out, qint64 value)
{
    char digits[24];
    char* end = digits + sizeof digits;
    char* p = end;
    const bool negative = value < 0;
    quint64 v = negative ? quint64(0) - quint64(value) : quint64(value);
    do {
        *--p = char('0' + v % 10);
        v /= 10;
    } while (v);
    if (negative)
        *--p = '-';
    out.append(p, size_t(end - p));
}

} // namespace lockscope
