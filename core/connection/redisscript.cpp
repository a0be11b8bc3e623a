// SPDX-License-Identifier: Apache-2.0
#include "connection/redisscript.h"

#include <QCryptographicHash>

namespace lockscope {

RedisScript::RedisScript(QByteArray source)
    : m_source(std::move(source)),
      m_sha1(QCryptographicHash::hash(m_source, QCryptographicHash::Sha1).toHex())
{}

} // namespace lockscope
