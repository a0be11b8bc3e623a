// SPDX-License-Identifier: Apache-2.0
#include "config/compiledglob.h"

#include "config/keyglob.h"

#include <algorithm>

namespace lockscope {

namespace {

// Free of the glob's special bytes, so that it stands for itself.
bool isLiteral(QByteArrayView text)
{
    return std::none_of(text.cbegin(), text.cend(),
                        [](char c) { return c == '*' || c == '?' || c == '[' || c == '\\'; });
}

} // namespace

CompiledGlob::CompiledGlob(const QByteArray& pattern)
{
    const QByteArrayView all(pattern);
    const bool starts = all.startsWith('*');
    // A trailing '*' escaped by a backslash is a literal star: isLiteral() turns the middle down.
    const bool ends = all.size() > 1 && all.endsWith('*');
    const QByteArrayView middle = all.sliced(starts ? 1 : 0).chopped(ends ? 1 : 0);
    if (!isLiteral(middle)) {
        m_text = pattern;
        return;
    }
    m_text = middle.toByteArray();
    if (starts && ends)
        m_shape = Shape::Contains;
    else if (starts)
        m_shape = Shape::Suffix;
    else if (ends)
        m_shape = Shape::Prefix;
    else
        m_shape = Shape::Exact;
}

bool CompiledGlob::matches(QByteArrayView key) const
{
    // Redis's matcher never matches the empty key with a '*' in the pattern ("**" included).
    switch (m_shape) {
    case Shape::Prefix:
        return !key.isEmpty() && key.startsWith(m_text);
    case Shape::Suffix:
        return !key.isEmpty() && key.endsWith(m_text);
    case Shape::Contains:
        return !key.isEmpty() && key.contains(m_text);
    case Shape::Exact:
        return key == m_text;
    case Shape::General:
        break;
    }
    return KeyGlob::matches(m_text, key);
}

bool CompiledGlob::isCoveredBy(const CompiledGlob& other) const
{
    if (m_shape == Shape::General || other.m_shape == Shape::General)
        return false;
    // A key this glob matches holds this glob's literal text, and is not empty unless the glob is
    // the exact empty key: a "*text*" whose text lies inside it matches the key as well.
    if (other.m_shape == Shape::Contains)
        return !m_text.isEmpty() && m_text.contains(other.m_text);
    if (m_shape == Shape::Exact)
        return other.matches(m_text);
    if (other.m_shape == Shape::Prefix && m_shape == Shape::Prefix)
        return m_text.startsWith(other.m_text);
    if (other.m_shape == Shape::Suffix && m_shape == Shape::Suffix)
        return m_text.endsWith(other.m_text);
    return false;
}

QByteArray CompiledGlob::requiredBytes() const
{
    if (m_shape != Shape::General)
        return m_text;
    // The grammar of Redis's matcher (KeyGlob): each literal byte matches itself at a place after
    // the previous one's; a class, '?' or '*' takes bytes of its own around them.
    QByteArray out;
    const qsizetype n = m_text.size();
    for (qsizetype i = 0; i < n;) {
        const char c = m_text.at(i);
        if (c == '*' || c == '?') {
            ++i;
        } else if (c == '\\' && i + 1 < n) {
            out += m_text.at(i + 1);
            i += 2;
        } else if (c == '[') {
            // One byte of the key, whatever the class holds. Skipped as the matcher reads it; one
            // left open is where what is known ends (the matcher's reading of it is no help).
            // A range's end is never the class's ("[a-]x]" holds a to ] and x).
            i += (i + 1 < n && m_text.at(i + 1) == '^') ? 2 : 1;
            while (i < n && m_text.at(i) != ']') {
                if (m_text.at(i) == '\\' && i + 1 < n)
                    i += 2;
                else if (i + 2 < n && m_text.at(i + 1) == '-')
                    i += 3;
                else
                    ++i;
            }
            if (i >= n)
                return out;
            ++i;
        } else {
            out += c; // a lone '\\' at the end as well: the matcher takes it for itself
            ++i;
        }
    }
    return out;
}

} // namespace lockscope
