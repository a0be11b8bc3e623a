// SPDX-License-Identifier: Apache-2.0
#include "export/jsontext.h"

#include "base/bytesdisplay.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <bit>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lockscope {

namespace {

const char hexDigits[] = "0123456789abcdef";

// What a text holds besides plain ASCII that JSON takes as it is.
struct TextShape
{
    char16_t high = 0;   // every code unit or-ed: 0x80 and up means beyond ASCII
    size_t controls = 0; // below 0x20
    size_t quoted = 0;   // " and \, which take a backslash
};

// Texts are looked at eight code units at a time where the CPU can: `list --json` of a big keyspace
// writes a sentence for each of a million stuck keys.
TextShape shapeOf(const char16_t* c, const char16_t* end)
{
    TextShape shape;
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi16(0x20);
    const __m128i quote = _mm_set1_epi16('"');
    const __m128i backslash = _mm_set1_epi16('\\');
    __m128i high = _mm_setzero_si128();
    for (; end - c >= 8; c += 8) {
        const __m128i units = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
        high = _mm_or_si128(high, units);
        // A signed comparison: units from 0x8000 count as controls too, and their text goes to Qt's
        // writer anyway.
        const int controls = _mm_movemask_epi8(_mm_cmplt_epi16(units, space));
        const int quoted =
            _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi16(units, quote), _mm_cmpeq_epi16(units, backslash)));
        shape.controls += size_t(std::popcount(unsigned(controls))) / 2; // two mask bits a unit
        shape.quoted += size_t(std::popcount(unsigned(quoted))) / 2;
    }
    alignas(16) char16_t lanes[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(lanes), high);
    for (const char16_t lane : lanes)
        shape.high |= lane;
#endif
    for (; c != end; ++c) {
        shape.high |= *c;
        shape.controls += size_t(*c < 0x20);
        shape.quoted += size_t(*c == '"') + size_t(*c == '\\');
    }
    return shape;
}

// Writes ASCII text without controls at `p`, a backslash before each " and \; returns the end.
char* putQuoted(char* p, const char16_t* c, const char16_t* end)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi16('"');
    const __m128i backslash = _mm_set1_epi16('\\');
    for (; end - c >= 8; c += 8) {
        const __m128i units = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
        if (_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi16(units, quote), _mm_cmpeq_epi16(units, backslash)))) {
            for (int k = 0; k < 8; ++k) {
                if (c[k] == '"' || c[k] == '\\')
                    *p++ = '\\';
                *p++ = char(c[k]);
            }
            continue;
        }
        // Every unit is below 0x80: packing them to bytes keeps them as they are.
        _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm_packus_epi16(units, units));
        p += 8;
    }
#endif
    for (; c != end; ++c) {
        if (*c == '"' || *c == '\\')
            *p++ = '\\';
        *p++ = char(*c);
    }
    return p;
}

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
    // Nearly every text is ASCII with no control characters and at most a few quotes and
    // backslashes (a sentence per stuck lock names its escaped token): one look says so, and it
    // is written in one more pass into exactly the room it takes.
    const char16_t* const begin = text.utf16();
    const char16_t* const end = begin + text.size();
    const TextShape shape = shapeOf(begin, end);
    if (shape.high >= 0x80) {
        // Rare (an owner or a sentence beyond ASCII; keys and tokens are escapeBytes() text):
        // Qt's own writer then, so that lone surrogates and the like come out as they did.
        const QByteArray doc = QJsonDocument(QJsonArray{text.toString()}).toJson(QJsonDocument::Compact);
        out.append(doc.constData() + 1, size_t(doc.size() - 2));
        return;
    }
    if (shape.controls == 0) {
        char* p = makeRoom(out, size_t(text.size()) + shape.quoted + 2);
        *p++ = '"';
        p = putQuoted(p, begin, end);
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
