// SPDX-License-Identifier: Apache-2.0
#include "metrics/webconfig.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <crypt.h>

#include <algorithm>
#include <memory>

namespace lockscope {

namespace {

RedisError configError(const QString& message)
{
    return RedisError(ErrorKind::InvalidConfig, QString(), message);
}

// A scalar: quotes removed; an unquoted value ends at a " #" comment.
QByteArray scalar(QByteArray v)
{
    v = v.trimmed();
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front())
        return v.mid(1, v.size() - 2);
    if (const qsizetype hash = v.indexOf(" #"); hash >= 0)
        v = v.left(hash).trimmed();
    return v;
}

// crypt(3) of `password` with the setting (and salt) of `hash`; empty on failure.
QByteArray cryptWith(const QByteArray& password, const QByteArray& hash)
{
    auto data = std::make_unique<crypt_data>();
    const char* out = crypt_r(password.constData(), hash.constData(), data.get());
    // libxcrypt returns a string starting with '*' on failure (never a valid hash).
    return out && *out != '*' ? QByteArray(out) : QByteArray();
}

// The cost of a bcrypt hash ("$2b$10$..." -> 10); -1 when it has none.
int bcryptCost(const QByteArray& hash)
{
    bool ok = false;
    const int cost = hash.mid(4, 2).toInt(&ok);
    return ok && hash.size() > 6 && hash.at(6) == '$' ? cost : -1;
}

bool sameBytes(const QByteArray& a, const QByteArray& b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return diff == 0;
}

} // namespace

Result<WebConfig> WebConfig::parse(const QByteArray& text, const QString& baseDir)
{
    WebConfig config;
    QByteArray section;
    int lineNumber = 0;
    const auto fail = [&](const QString& what) {
        return configError(QStringLiteral("web config line %1: %2").arg(lineNumber).arg(what));
    };
    for (const QByteArray& raw : text.split('\n')) {
        ++lineNumber;
        const QByteArray trimmed = raw.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith('#') || trimmed == "---")
            continue;
        const bool indented = raw.startsWith(' ') || raw.startsWith('\t');
        const qsizetype colon = trimmed.indexOf(':');
        if (colon <= 0)
            return fail(QStringLiteral("expected \"key: value\""));
        const QByteArray key = scalar(trimmed.left(colon));
        const QByteArray value = scalar(trimmed.mid(colon + 1));
        if (!indented) {
            if (key != "tls_server_config" && key != "basic_auth_users")
                return fail(QStringLiteral("unsupported setting '%1' (supported: tls_server_config, "
                                           "basic_auth_users)")
                                .arg(QString::fromUtf8(key)));
            if (!value.isEmpty() && value != "{}")
                return fail(QStringLiteral("'%1' is a mapping").arg(QString::fromUtf8(key)));
            section = key;
            continue;
        }
        if (section.isEmpty())
            return fail(QStringLiteral("indented line outside a section"));
        if (section == "basic_auth_users") {
            if (!value.startsWith("$2"))
                return fail(QStringLiteral("the password of '%1' is not a bcrypt hash ($2y$/$2b$...)")
                                .arg(QString::fromUtf8(key)));
            // Checked once now, so that a truncated or mangled hash is this error and not a user who
            // can never log in: crypt(3) of any password with a valid hash gives a hash of the same
            // shape and salt.
            const QByteArray probe = cryptWith(QByteArrayLiteral("probe"), value);
            if (bcryptCost(value) < 0 || probe.size() != value.size() || !probe.startsWith(value.left(29)))
                return fail(QStringLiteral("the password hash of '%1' is not a valid bcrypt hash (60 "
                                           "characters, e.g. from htpasswd -nBC 10)")
                                .arg(QString::fromUtf8(key)));
            config.m_users.insert(QString::fromUtf8(key), value);
            continue;
        }
        const QString path = value.isEmpty() ? QString() : QDir(baseDir).filePath(QString::fromUtf8(value));
        if (key == "cert_file")
            config.m_certFile = path;
        else if (key == "key_file")
            config.m_keyFile = path;
        else
            return fail(
                QStringLiteral("unsupported tls_server_config setting '%1' (supported: cert_file, key_file)")
                    .arg(QString::fromUtf8(key)));
    }
    if (config.m_certFile.isEmpty() != config.m_keyFile.isEmpty())
        return configError(QStringLiteral("web config: tls_server_config needs both cert_file and key_file"));
    // An unknown user is checked against a hash as slow as the slowest configured one: answering
    // sooner would tell which names exist.
    int slowest = -1;
    for (const QByteArray& hash : std::as_const(config.m_users))
        slowest = std::max(slowest, bcryptCost(hash));
    if (slowest >= 0)
        config.m_unknownUserHash = bcryptHash(QByteArrayLiteral("no such user"), slowest);
    return config;
}

int WebConfig::unknownUserCost() const
{
    return m_unknownUserHash.isEmpty() ? -1 : bcryptCost(m_unknownUserHash);
}

Result<WebConfig> WebConfig::load(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return configError(QStringLiteral("cannot read web config %1: %2").arg(path, file.errorString()));
    return parse(file.readAll(), QFileInfo(path).absolutePath());
}

Result<QList<QSslCertificate>> WebConfig::certificates() const
{
    const QList<QSslCertificate> chain = QSslCertificate::fromPath(m_certFile, QSsl::Pem);
    if (chain.isEmpty())
        return configError(QStringLiteral("no PEM certificate in %1").arg(m_certFile));
    return chain;
}

Result<QSslKey> WebConfig::privateKey() const
{
    QFile file(m_keyFile);
    if (!file.open(QIODevice::ReadOnly))
        return configError(QStringLiteral("cannot read %1: %2").arg(m_keyFile, file.errorString()));
    const QByteArray pem = file.readAll();
    for (QSsl::KeyAlgorithm algorithm : {QSsl::Rsa, QSsl::Ec, QSsl::Opaque}) {
        QSslKey key(pem, algorithm, QSsl::Pem);
        if (!key.isNull())
            return key;
    }
    return configError(QStringLiteral("no PEM private key in %1").arg(m_keyFile));
}

std::optional<WebConfig::Credentials> WebConfig::credentials(const QByteArray& header) const
{
    if (!header.startsWith("Basic "))
        return std::nullopt;
    const auto result =
        QByteArray::fromBase64Encoding(header.mid(6).trimmed(), QByteArray::AbortOnBase64DecodingErrors);
    if (!result)
        return std::nullopt;
    const qsizetype colon = result.decoded.indexOf(':');
    if (colon < 0)
        return std::nullopt;
    Credentials out;
    out.hash = m_users.value(QString::fromUtf8(result.decoded.left(colon)));
    out.password = result.decoded.mid(colon + 1);
    out.digest = QCryptographicHash::hash(result.decoded, QCryptographicHash::Sha256);
    return out;
}

bool WebConfig::remembered(const QByteArray& header) const
{
    const std::optional<Credentials> c = credentials(header);
    return c && !c->hash.isEmpty() && m_verified.value(c->digest) == c->hash;
}

bool WebConfig::authorize(const QByteArray& header) const
{
    const std::optional<Credentials> c = credentials(header);
    if (!c)
        return false;
    const QByteArray& hash = c->hash;
    const QByteArray& digest = c->digest;
    if (!hash.isEmpty() && m_verified.value(digest) == hash)
        return true;
    const QByteArray computed = cryptWith(c->password, hash.isEmpty() ? m_unknownUserHash : hash);
    if (hash.isEmpty() || computed.isEmpty() || !sameBytes(computed, hash))
        return false;
    if (m_verified.size() > 64)
        m_verified.clear();
    m_verified.insert(digest, hash);
    return true;
}

QByteArray bcryptHash(const QByteArray& password, int cost)
{
    char setting[CRYPT_GENSALT_OUTPUT_SIZE];
    if (!crypt_gensalt_rn("$2b$", static_cast<unsigned long>(cost), nullptr, 0, setting, sizeof setting))
        return {};
    return cryptWith(password, QByteArray(setting));
}

} // namespace lockscope
