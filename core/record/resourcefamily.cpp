// SPDX-License-Identifier: Apache-2.0
#include "record/resourcefamily.h"

#include <algorithm>

namespace lockscope {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool isWordChar(char c)
{
    return isHex(c) || (c >= 'g' && c <= 'z') || (c >= 'G' && c <= 'Z') || c == '_';
}

// The length of the variable part starting at `at`, 0 when there is none: a UUID (8-4-4-4-12 hex),
// a run of hex characters of 8 or more holding a digit, or a run of digits, each a whole word (a
// digit inside "v2api" is part of the word).
qsizetype variableAt(const QByteArray& s, qsizetype at)
{
    if (at > 0 && isWordChar(s[at - 1]))
        return 0;
    qsizetype end = at;
    bool digit = false;
    while (end < s.size() && isHex(s[end])) {
        digit = digit || isDigit(s[end]);
        ++end;
    }
    // A UUID: its dashes join five hex groups.
    static constexpr int groups[] = {8, 4, 4, 4, 12};
    qsizetype u = at;
    bool uuid = true;
    for (int g = 0; g < 5 && uuid; ++g) {
        for (int k = 0; k < groups[g]; ++k, ++u)
            if (u >= s.size() || !isHex(s[u]))
                uuid = false;
        if (uuid && g < 4 && (u >= s.size() || s[u++] != '-'))
            uuid = false;
    }
    if (uuid && (u == s.size() || !isWordChar(s[u])))
        return u - at;
    if (end < s.size() && isWordChar(s[end]))
        return 0; // a word that merely starts with hex ("cafeteria")
    const qsizetype length = end - at;
    const bool allDigits = digit && std::all_of(s.cbegin() + at, s.cbegin() + end, isDigit);
    if (allDigits || (length >= 8 && digit))
        return length;
    return 0;
}

} // namespace

QByteArray ResourceFamily::of(const QByteArray& resource)
{
    QByteArray out;
    out.reserve(resource.size());
    for (qsizetype i = 0; i < resource.size();) {
        if (const qsizetype n = variableAt(resource, i); n > 0) {
            if (!out.endsWith('*'))
                out += '*';
            i += n;
            continue;
        }
        out += resource[i++];
    }
    return out;
}

} // namespace lockscope
