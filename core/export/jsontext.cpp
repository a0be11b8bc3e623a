#include "export/jsontext.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace lockscope {

namespace {

const char hexDigits[] = "0123456789abcdef";

// Writes `c` (below 0x80) as QJsonDocument does.
inline void appendAscii(QByteArray& out, char16_t c)
{
    if (c >= 0x20 && c != '"' && c != '\\') {
        out += char(c);
        return;
    }
    out += '\\';
    switch (c) {
    case '"':
        out += '"';
        break;
    case '\\':
        out += '\\';
        break;
    case '\b':
        out += 'b';
        break;
    case '\f':
        out += 'f';
        break;
    case '\n':
        out += 'n';
        break;
    case '\r':
        out += 'r';
        break;
    case '\t':
        out += 't';
        break;
    default:
        out += "u00";
        out += hexDigits[c >> 4];
        out += hexDigits[c & 0xf];
    }
}

} // namespace

void JsonText::appendString(QByteArray& out, QStringView text)
{
    for (const QChar c : text)
        if (c.unicode() >= 0x80) {
            // Rare (an owner or a sentence beyond ASCII; keys and tokens are escapeBytes() text):
            // Qt's own writer then, so that lone surrogates and the like come out as they did.
            const QByteArray doc = QJsonDocument(QJsonArray{text.toString()}).toJson(QJsonDocument::Compact);
            out += QByteArrayView(doc).sliced(1, doc.size() - 2);
            return;
        }
    out.reserve(out.size() + text.size() + 2);
    out += '"';
    for (const QChar c : text)
        appendAscii(out, c.unicode());
    out += '"';
}

void JsonText::appendString(QByteArray& out, QLatin1StringView text)
{
    for (const char c : text)
        if (uchar(c) >= 0x80) {
            appendString(out, QString(text));
            return;
        }
    out.reserve(out.size() + text.size() + 2);
    out += '"';
    for (const char c : text)
        appendAscii(out, char16_t(c));
    out += '"';
}

void JsonText::appendKey(QByteArray& out, const char* key)
{
    out += '"';
    out += key;
    out += "\":";
}

void JsonText::appendNumber(QByteArray& out, qint64 value)
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
    out.append(p, end - p);
}

} // namespace lockscope
