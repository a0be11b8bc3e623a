// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>

#include <optional>

namespace lockscope {

// `lockctl serve --web-config FILE`: TLS and basic authentication for the listener, in the shape
// of Prometheus's own web configuration file (docs/manual/prometheus.md, "TLS and basic authentication"):
//
//   tls_server_config:
//     cert_file: server.crt      # relative paths are relative to the file
//     key_file: server.key
//   basic_auth_users:
//     prometheus: $2y$10$...     # bcrypt, e.g. htpasswd -nBC 10 "" | tr -d ':\n'
//
// Only that subset of YAML (two-level mappings of scalars, comments, quotes) and those keys are
// read; anything else is an error rather than a setting silently ignored.
class WebConfig
{
public:
    static Result<WebConfig> parse(const QByteArray& text, const QString& baseDir = {});
    static Result<WebConfig> load(const QString& path);

    bool tls() const { return !m_certFile.isEmpty(); }
    const QString& certFile() const { return m_certFile; }
    const QString& keyFile() const { return m_keyFile; }
    // The certificate chain (leaf first) and key of cert_file and key_file; errors name the file.
    Result<QList<QSslCertificate>> certificates() const;
    Result<QSslKey> privateKey() const;

    bool requiresAuth() const { return !m_users.isEmpty(); }
    QStringList users() const { return m_users.keys(); }
    // The value of an Authorization header checked against basic_auth_users (bcrypt through the
    // system's crypt(3)); false for anything malformed. A success is remembered, so that a scrape
    // every second does not pay bcrypt's cost every time. An unknown user costs as much as the
    // slowest configured hash.
    bool authorize(const QByteArray& authorizationHeader) const;
    // True when authorize() would succeed without bcrypt: these credentials succeeded before.
    bool remembered(const QByteArray& authorizationHeader) const;
    // The bcrypt cost an unknown user's password is checked at (-1 without users): the slowest
    // configured cost, so that a wrong name answers no sooner than a wrong password.
    int unknownUserCost() const;

private:
    struct Credentials
    {
        QByteArray hash; // empty for an unknown user
        QByteArray password;
        QByteArray digest; // SHA-256 of name:password
    };
    std::optional<Credentials> credentials(const QByteArray& header) const;

    QString m_certFile;
    QString m_keyFile;
    QHash<QString, QByteArray> m_users;               // name -> bcrypt hash
    QByteArray m_unknownUserHash;                     // at the cost of the slowest of m_users
    mutable QHash<QByteArray, QByteArray> m_verified; // SHA-256 of name:password -> the hash it matched
};

// The bcrypt hash of `password` at `cost` ($2b$), for tests and for documentation examples.
QByteArray bcryptHash(const QByteArray& password, int cost = 5);

} // namespace lockscope
