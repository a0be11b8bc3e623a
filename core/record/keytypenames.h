// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QList>

namespace lockscope {

// The key types a recorder has seen ("string", "hash", ...), each by a small number that fits the
// recorder's per-master bit field; 0 is none (the key absent).
class KeyTypeNames
{
public:
    // Redis has seven types of its own and modules add a few: past `capacity - 1` of them (more than
    // any deployment has), a new one reads as absent, and no type change is told for it.
    explicit KeyTypeNames(int capacity) : m_capacity(capacity) {}

    // The number of `type` (given one when new); 0 for none.
    int indexOf(const QByteArray& type);
    const QByteArray& at(int index) const { return m_names.at(index); }

private:
    int m_capacity;
    QList<QByteArray> m_names{QByteArray()};
};

} // namespace lockscope
