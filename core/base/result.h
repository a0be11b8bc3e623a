// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"

#include <utility>
#include <variant>

namespace lockscope {

// A value or the error that prevented it (std::expected is C++23; GCC 12 lacks it).
template <typename T> class Result
{
public:
    Result(T value) : m_data(std::move(value)) {}
    Result(RedisError error) : m_data(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }

    const T& value() const& { return std::get<T>(m_data); }
    T& value() & { return std::get<T>(m_data); }
    T&& value() && { return std::get<T>(std::move(m_data)); }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }

    const RedisError& error() const { return std::get<RedisError>(m_data); }

private:
    std::variant<T, RedisError> m_data;
};

} // namespace lockscope
