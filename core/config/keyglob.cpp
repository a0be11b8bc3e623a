// SPDX-License-Identifier: Apache-2.0
#include "config/keyglob.h"

#include <utility>

namespace lockscope {

namespace {

// A port of Redis 7.0's stringmatchlen_impl (nocase off). `pattern` is NUL-terminated (QByteArray
// guarantees it), which the original relies on when it peeks one byte past a trailing '*'.
bool matchFrom(const char* pattern, qsizetype patternLen, const char* string, qsizetype stringLen,
               bool* skipLongerMatches, int nesting)
{
    if (nesting > 1000) // Redis's protection against abusive patterns
        return false;
    while (patternLen && stringLen) {
        switch (pattern[0]) {
        case '*':
            while (patternLen && pattern[1] == '*') {
                ++pattern;
                --patternLen;
            }
            if (patternLen == 1)
                return true;
            while (stringLen) {
                if (matchFrom(pattern + 1, patternLen - 1, string, stringLen, skipLongerMatches, nesting + 1))
                    return true;
                if (*skipLongerMatches)
                    return false;
                ++string;
                --stringLen;
            }
            // No match for the rest of the pattern from anywhere in the rest of the string: a longer
            // match for an earlier '*' cannot help either.
            *skipLongerMatches = true;
            return false;
        case '?':
            ++string;
            --stringLen;
            break;
        case '[': {
            ++pattern;
            --patternLen;
            const bool negate = pattern[0] == '^';
            if (negate) {
                ++pattern;
                --patternLen;
            }
            bool match = false;
            while (true) {
                if (pattern[0] == '\\' && patternLen >= 2) {
                    ++pattern;
                    --patternLen;
                    if (pattern[0] == string[0])
                        match = true;
                } else if (pattern[0] == ']') {
                    break;
                } else if (patternLen == 0) {
                    --pattern;
                    ++patternLen;
                    break;
                } else if (patternLen >= 3 && pattern[1] == '-') {
                    int start = pattern[0];
                    int end = pattern[2];
                    const int c = string[0];
                    if (start > end)
                        std::swap(start, end);
                    pattern += 2;
                    patternLen -= 2;
                    if (c >= start && c <= end)
                        match = true;
                } else if (pattern[0] == string[0]) {
                    match = true;
                }
                ++pattern;
                --patternLen;
            }
            if (negate)
                match = !match;
            if (!match)
                return false;
            ++string;
            --stringLen;
            break;
        }
        case '\\':
            if (patternLen >= 2) {
                ++pattern;
                --patternLen;
            }
            [[fallthrough]];
        default:
            if (pattern[0] != string[0])
                return false;
            ++string;
            --stringLen;
            break;
        }
        ++pattern;
        --patternLen;
        if (stringLen == 0) {
            while (*pattern == '*') {
                ++pattern;
                --patternLen;
            }
            break;
        }
    }
    return patternLen == 0 && stringLen == 0;
}

} // namespace

QByteArray KeyGlob::literal(QByteArrayView key)
{
    QByteArray out;
    out.reserve(key.size() + 8);
    for (const char c : key) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

bool KeyGlob::matches(const QByteArray& pattern, QByteArrayView key)
{
    if (pattern == "*")
        return true;
    bool skipLongerMatches = false;
    return matchFrom(pattern.constData(), pattern.size(), key.constData(), key.size(), &skipLongerMatches, 0);
}

} // namespace lockscope
