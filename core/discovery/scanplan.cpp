// SPDX-License-Identifier: Apache-2.0
#include "discovery/scanplan.h"

#include "config/keyglob.h"

#include <QByteArrayView>

#include <algorithm>

namespace lockscope {

namespace {

// SCAN takes exactly "*" for "every key" (the empty key too, which no other glob matches).
bool isMatchAll(const QByteArray& pattern)
{
    return pattern == "*";
}

// Free of the glob's special bytes, so that it stands for itself.
bool isLiteral(QByteArrayView text)
{
    return std::none_of(text.cbegin(), text.cend(),
                        [](char c) { return c == '*' || c == '?' || c == '[' || c == '\\'; });
}

} // namespace

ScanPlan::ScanPlan(const QList<ScanPattern>& patterns)
{
    if (patterns.size() == 1) {
        m_match = patterns.front().match;
        m_keepsAll = true;
        return;
    }
    for (const ScanPattern& p : patterns) {
        if (isMatchAll(p.match)) {
            m_keepsAll = true;
            m_globs.clear();
            return;
        }
        m_globs.push_back(compile(p.match));
    }
}

ScanPlan::Glob ScanPlan::compile(const QByteArray& pattern)
{
    const QByteArrayView all(pattern);
    const bool starts = all.startsWith('*');
    // A trailing '*' escaped by a backslash is a literal star: isLiteral() turns the middle down.
    const bool ends = all.size() > 1 && all.endsWith('*');
    const QByteArrayView middle = all.sliced(starts ? 1 : 0).chopped(ends ? 1 : 0);
    if (!isLiteral(middle))
        return {Glob::Shape::General, pattern};
    const QByteArray text = middle.toByteArray();
    if (starts && ends)
        return {Glob::Shape::Contains, text};
    if (starts)
        return {Glob::Shape::Suffix, text};
    if (ends)
        return {Glob::Shape::Prefix, text};
    return {Glob::Shape::Exact, text};
}

bool ScanPlan::matches(const Glob& glob, QByteArrayView key)
{
    // Redis's matcher never matches the empty key with a '*' in the pattern ("**" included).
    switch (glob.shape) {
    case Glob::Shape::Prefix:
        return !key.isEmpty() && key.startsWith(glob.text);
    case Glob::Shape::Suffix:
        return !key.isEmpty() && key.endsWith(glob.text);
    case Glob::Shape::Contains:
        return !key.isEmpty() && key.contains(glob.text);
    case Glob::Shape::Exact:
        return key == glob.text;
    case Glob::Shape::General:
        break;
    }
    return KeyGlob::matches(glob.text, key);
}

QByteArrayList ScanPlan::scanCommand(const QByteArray& cursor, int count) const
{
    QByteArrayList command{"SCAN", cursor};
    if (!m_match.isEmpty())
        command << "MATCH" << m_match;
    command << "COUNT" << QByteArray::number(count);
    return command;
}

bool ScanPlan::keeps(QByteArrayView key) const
{
    return m_keepsAll ||
           std::any_of(m_globs.cbegin(), m_globs.cend(), [&key](const Glob& g) { return matches(g, key); });
}

} // namespace lockscope
