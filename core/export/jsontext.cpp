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

// Room for `n` characters escaped and quoted at the end of `out`; returns where they go.
inline char* makeRoom(std::string& out, qsizetype n)
{
    const size_t start = out.size();
    out.resize(start + 6 * size_t(n) + 2);
    return out.data() + start;
}

inline void trimTo(std::string& out, const char* end)
{
    out.resize(size_t(end - out.data()));
}

} // namespace

void JsonText::appendString(std::string& out, QStringView text)
{
    for (const QChar c : text)
        if (c.unicode() >= 0x80) {
            // Rare (an owner or a sentence beyond ASCII; keys and tokens are escapeBytes() text):
            // Qt's own writer then, so that lone surrogates and the like come out as they did.
            const QByteArray doc = QJsonDocument(QJsonArray{text.toString()}).toJson(QJsonDocument::Compact);
            out.append(doc.constData() + 1, size_t(doc.size() - 2));
            return;
        }
    char* p = makeRoom(out, text.size());
    *p++ = '"';
    for (const QChar c : text)
        p = putAscii(p, c.unicode());
    *p++ = '"';
    trimTo(out, p);
}

void JsonText::appendBytes(std::string& out, const QByteArray& bytes)
{
    for (const char c : bytes)
        if (c < 0x20 || c > 0x7e || c == '\\') {
            appendString(out, escapeBytes(bytes));
            return;
        }
    char* p = makeRoom(out, bytes.size());
    *p++ = '"';
    for (const char c : bytes) {
        if (c == '"')
            *p++ = '\\';
        *p++ = c;
    }
    *p++ = '"';
    trimTo(out, p);
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
