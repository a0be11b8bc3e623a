// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"

#include "base/result.h"
#include <QString>

namespace lockscope {

// Where one master lives. Parsed from
//   redis://[user[:password]@]host[:port][/db]
//   rediss://...                      (TLS)
//   unix:///path/to/socket[?db=N]
// The password is kept for connecting but never printed: toString() leaves it out.
class RedisUrl
{
public:
    enum class Scheme
    {
        Tcp,
        Tls,
        Unix,
    };

    static constexpr quint16 defaultPort = 6379;

    // The error message never repeats the password, even when the input is malformed.
    static Result<RedisUrl> parse(const QString& text);

    Scheme scheme() const { return m_scheme; }
    const QString& host() const { return m_host; }
    quint16 port() const { return m_port; }
    const QString& socketPath() const { return m_socketPath; }
    int db() const { return m_db; }
    const QString& user() const { return m_user; }
    const QString& password() const { return m_password; }
    bool isTls() const { return m_scheme == Scheme::Tls; }

    void setUser(const QString& user) { m_user = user; }
    void setPassword(const QString& password) { m_password = password; }

    // The URL without its password: safe for logs, tables, errors and JSON.
    QString toString() const;

    bool operator==(const RedisUrl&) const = default;

private:
    Scheme m_scheme = Scheme::Tcp;
    QString m_host;
    quint16 m_port = defaultPort;
    QString m_socketPath;
    int m_db = 0;
    QString m_user;
    QString m_password;
};

} // namespace lockscope
