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

} // namespace lockscope
