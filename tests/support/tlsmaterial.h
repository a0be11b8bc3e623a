// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QTemporaryDir>

namespace lockscope::test {

// Certificates made with openssl at test time: a CA, a server certificate for localhost and
// 127.0.0.1 signed by it, a client certificate, and a second CA that signed nothing we use
// (to provoke "untrusted certificate").
class TlsMaterial
{
public:
    // Generated once per test process; isValid() is false (with error()) when openssl failed.
    static const TlsMaterial& instance();

    bool isValid() const { return m_error.isEmpty(); }
    const QString& error() const { return m_error; }

    QString caFile() const { return path(QStringLiteral("ca.crt")); }
    QString serverCertFile() const { return path(QStringLiteral("server.crt")); }
    QString serverKeyFile() const { return path(QStringLiteral("server.key")); }
    QString clientCertFile() const { return path(QStringLiteral("client.crt")); }
    QString clientKeyFile() const { return path(QStringLiteral("client.key")); }
    QString otherCaFile() const { return path(QStringLiteral("other-ca.crt")); }

private:
    TlsMaterial();
    QString path(const QString& name) const { return m_dir.filePath(name); }
    bool openssl(const QStringList& args);

    QTemporaryDir m_dir;
    QString m_error;
};

} // namespace lockscope::test
