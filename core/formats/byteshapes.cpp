// SPDX-License-Identifier: Apache-2.0
#include "formats/byteshapes.h"

#include <QDateTime>

namespace lockscope::recognition {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool isHex(char c)
{
    return hexValue(c) >= 0;
}

bool isLowerHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f');
}

bool isBase64(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || isDigit(c) || c == '+' || c == '/';
}

quint64 parseHex(QByteArrayView hex)
{
    quint64 n = 0;
    for (const char c : hex)
        n = (n << 4) | quint64(hexValue(c));
    return n;
}

std::optional<qint64> parseCount(QByteArrayView digits)
{
    if (digits.size() > 18 || !allOf(digits, isDigit))
        return std::nullopt;
    qint64 n = 0;
    for (const char c : digits)
        n = n * 10 + (c - '0');
    return n;
}

QString utcText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) +
           QStringLiteral(" UTC");
}

bool isPrintableText(QByteArrayView bytes, bool cut)
{
    const qsizetype n = bytes.size();
    if (n == 0)
        return false;
    qsizetype i = 0;
    while (i < n) {
        const uchar lead = uchar(bytes[i]);
        if (lead < 0x80) {
            if (lead < 0x20 || lead == 0x7f)
                return false;
            ++i;
            continue;
        }
        int length = 0;
        char32_t cp = 0;
        char32_t smallest = 0;
        if ((lead & 0xE0) == 0xC0) {
            length = 2;
            cp = lead & 0x1F;
            smallest = 0x80;
        } else if ((lead & 0xF0) == 0xE0) {
            length = 3;
            cp = lead & 0x0F;
            smallest = 0x800;
        } else if ((lead & 0xF8) == 0xF0) {
            length = 4;
            cp = lead & 0x07;
            smallest = 0x10000;
        } else {
            return false;
        }
        const bool ragged = i + length > n;
        if (ragged && !cut)
            return false;
        const qsizetype end = ragged ? n : i + length;
        for (qsizetype k = i + 1; k < end; ++k) {
            const uchar next = uchar(bytes[k]);
            if ((next & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (next & 0x3F);
        }
        if (ragged)
            return true;
        if (cp < smallest || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp >= 0x80 && cp < 0xA0))
            return false;
        i += length;
    }
    return true;
}

bool isUuidText(QByteArrayView v)
{
    if (v.size() != 36)
        return false;
    for (qsizetype i = 0; i < 36; ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? v[i] != '-' : !isHex(v[i]))
            return false;
    }
    return true;
}

bool isRandomBase64Token(QByteArrayView v)
{
    if (v.size() != 22 || !allOf(v, isBase64))
        return false;
    auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
    bool anyUpper = false;
    bool anyLower = false;
    bool anyOther = false;
    bool twoCapitals = false;
    int caseChanges = 0;
    for (qsizetype i = 0; i < v.size(); ++i) {
        anyUpper = anyUpper || upper(v[i]);
        anyLower = anyLower || lower(v[i]);
        anyOther = anyOther || !(upper(v[i]) || lower(v[i]));
        if (i > 0) {
            twoCapitals = twoCapitals || (upper(v[i - 1]) && upper(v[i]));
            caseChanges += upper(v[i - 1]) != upper(v[i]) ? 1 : 0;
        }
    }
    if (!anyUpper || !anyLower)
        return false;
    return anyOther || (caseChanges >= 6 && twoCapitals);
}

} // namespace lockscope::recognition
