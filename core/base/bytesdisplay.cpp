// SPDX-License-Identifier: Apache-2.0
#include "base/bytesdisplay.h"

#include <QStringDecoder>
#include <QStringList>

#include <algorithm>

namespace lockscope {

namespace {

void appendHex(QString& out, uchar byte)
{
    static const char digits[] = "0123456789abcdef";
    out += QStringLiteral("\\x");
    out += QLatin1Char(digits[byte >> 4]);
    out += QLatin1Char(digits[byte & 15]);
}

// Length of the valid UTF-8 sequence starting at `i`, or 0 when it is not one.
int utf8Length(const QByteArray& b, qsizetype i)
{
    const uchar c = uchar(b[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > b.size())
        return 0;
    for (int k = 1; k < len; ++k)
        if ((uchar(b[i + k]) >> 6) != 2)
            return 0;
    if (len > 1) {
        // Reject overlong forms and surrogates: QString::fromUtf8 would not give these bytes back.
        const QString decoded = QString::fromUtf8(b.constData() + i, len);
        if (decoded.toUtf8() != b.mid(i, len))
            return 0;
    }
    return len;
}

// Code points that do not show as a glyph of their own, or that change how the text around
// them is shown: controls (C0, DEL, C1), format characters (bidi embeddings, overrides and
// isolates, zero-width joiners, the BOM, tag characters), line and paragraph separators, every
// space but U+0020, unassigned code points (nothing vouches for what a terminal makes of them),
// and the rest of Unicode's Default_Ignorable_Code_Point set (Hangul fillers, the combining
// grapheme joiner, variation selectors). Printed, any of them would let a key or an error text
// look like something it is not, or move the terminal's cursor; escaped, they read as bytes.
bool isHidden(char32_t cp)
{
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
        return true;
    if (cp < 0x7f)
        return false;
    switch (QChar::category(cp)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Other_NotAssigned:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
        return true;
    case QChar::Separator_Space:
        return cp != 0x20;
    default:
        break;
    }
    return cp == 0x034f                      // combining grapheme joiner
           || cp == 0x115f || cp == 0x1160   // Hangul choseong/jungseong fillers
           || cp == 0x17b4 || cp == 0x17b5   // Khmer inherent vowels
           || (cp >= 0x180b && cp <= 0x180f) // Mongolian variation selectors
           || cp == 0x2800                   // Braille blank
           || cp == 0x3164 || cp == 0xffa0   // Hangul fillers
           || (cp >= 0xfe00 && cp <= 0xfe0f) // variation selectors
           || (cp >= 0x1bca0 && cp <= 0x1bca3) || (cp >= 0xe0000 && cp <= 0xe0fff);
}

// escapeBytes() of bytes all below 0x80 (keys and tokens, nearly always), written in place: a
// `list --json` of a million keys escapes each token three times.
QString escapeAscii(const QByteArray& bytes)
{
    qsizetype length = 0;
    for (const char c : bytes)
        length += isHidden(uchar(c)) ? 4 : c == '\\' ? 2 : 1;
    QString out(length, Qt::Uninitialized);
    QChar* p = out.data();
    for (const char c : bytes) {
        const uchar u = uchar(c);
        if (isHidden(u)) {
            static const char digits[] = "0123456789abcdef";
            *p++ = u'\\';
            *p++ = u'x';
            *p++ = QLatin1Char(digits[u >> 4]);
            *p++ = QLatin1Char(digits[u & 15]);
        } else {
            if (u == '\\')
                *p++ = u'\\';
            *p++ = QLatin1Char(char(u));
        }
    }
    return out;
}

} // namespace

QString escapeBytes(const QByteArray& bytes)
{
    if (std::all_of(bytes.cbegin(), bytes.cend(), [](char c) { return uchar(c) < 0x80; }))
        return escapeAscii(bytes);
    QString out;
    out.reserve(bytes.size());
    for (qsizetype i = 0; i < bytes.size();) {
        const uchar c = uchar(bytes[i]);
        if (c == '\\') {
            out += QStringLiteral("\\\\");
            ++i;
            continue;
        }
        if (c < 0x80) {
            if (isHidden(c))
                appendHex(out, c);
            else
                out += QLatin1Char(char(c));
            ++i;
            continue;
        }
        const int len = utf8Length(bytes, i);
        if (len == 0) {
            appendHex(out, c);
            ++i;
            continue;
        }
        const QString decoded = QString::fromUtf8(bytes.constData() + i, len);
        const char32_t cp = decoded.size() == 2 ? QChar::surrogateToUcs4(decoded[0], decoded[1])
                                                : char32_t(decoded[0].unicode());
        if (isHidden(cp)) {
            // Every byte of it, so that unescapeBytes gives the same bytes back.
            for (int k = 0; k < len; ++k)
                appendHex(out, uchar(bytes[i + k]));
        } else {
            out += decoded;
        }
        i += len;
    }
    return out;
}

QString escapeText(QStringView text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size();) {
        qsizetype len = 1;
        char32_t cp = text[i].unicode();
        if (text[i].isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            cp = QChar::surrogateToUcs4(text[i], text[i + 1]);
            len = 2;
        }
        if (isHidden(cp)) {
            // A lone surrogate has no UTF-8 form: it shows as the replacement character's bytes.
            for (const char byte : text.mid(i, len).toUtf8())
                appendHex(out, uchar(byte));
        } else {
            out += text.mid(i, len);
        }
        i += len;
    }
    return out;
}

Result<QByteArray> unescapeBytes(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    QByteArray out;
    out.reserve(utf8.size());
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        if (utf8[i] != '\\') {
            out += utf8[i];
            continue;
        }
        if (i + 1 < utf8.size() && utf8[i + 1] == '\\') {
            out += '\\';
            ++i;
            continue;
        }
        if (i + 3 < utf8.size() && utf8[i + 1] == 'x') {
            bool ok = false;
            const int value = utf8.mid(i + 2, 2).toInt(&ok, 16);
            if (ok) {
                out += char(value);
                i += 3;
                continue;
            }
        }
        return RedisError(
            ErrorKind::InvalidArgument, QString(),
            QStringLiteral("bad escape at position %1: use \\\\ for a backslash or \\xNN for a byte").arg(i));
    }
    return out;
}

QString escapeCommand(const QByteArrayList& argv)
{
    QStringList words;
    for (const QByteArray& arg : argv)
        words << escapeBytes(arg);
    return words.join(QLatin1Char(' '));
}

} // namespace lockscope
