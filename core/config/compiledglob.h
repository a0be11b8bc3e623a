// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace lockscope {

// A key glob compiled once for the shapes lock patterns take (lock:*, *:lock, *lock*, an exact
// key), which are matched with one comparison instead of Redis's general matcher (KeyGlob); every
// other glob falls back to that matcher. Judges every key as Redis's MATCH does (tst_scanplan).
class CompiledGlob
{
public:
    enum class Shape
    {
        Prefix,   // abc*
        Suffix,   // *abc
        Contains, // *abc*
        Exact,    // abc
        General,  // anything else: KeyGlob
    };

    CompiledGlob() = default;
    explicit CompiledGlob(const QByteArray& pattern);

    Shape shape() const { return m_shape; }
    bool matches(QByteArrayView key) const;
    // Every key this glob matches, `other` matches too (judged from the shapes, so some true
    // subsets go unnoticed; never the other way round): a set of patterns needs only the others.
    bool isCoveredBy(const CompiledGlob& other) const;
    // The bytes every key it matches holds, in this order (not necessarily next to each other): its
    // literal bytes, escaped ones included; a class, '?' and '*' stand for none.
    QByteArray requiredBytes() const;

private:
    Shape m_shape = Shape::General;
    QByteArray m_text; // the literal part; the whole pattern when General
};

} // namespace lockscope
