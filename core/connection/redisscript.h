// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>

namespace lockscope {

// A Lua script sent by EVALSHA, with its source kept for the NOSCRIPT fallback.
class RedisScript
{
public:
    explicit RedisScript(QByteArray source);

    const QByteArray& source() const { return m_source; }
    const QByteArray& sha1() const { return m_sha1; }

private:
    QByteArray m_source;
    QByteArray m_sha1; // lower-case hex, as SCRIPT LOAD returns it
};

} // namespace lockscope
