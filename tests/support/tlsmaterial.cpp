// SPDX-License-Identifier: Apache-2.0
#include "support/tlsmaterial.h"

#include <QFile>
#include <QProcess>

namespace lockscope::test {

const TlsMaterial& TlsMaterial::instance()
{
    static const TlsMaterial material;
    return material;
}

bool TlsMaterial::openssl(const QStringList& args)
{
    if (!m_error.isEmpty())
        return false;
    QProcess p;
    p.setWorkingDirectory(m_dir.path());
    p.start(QStringLiteral("openssl"), args);
    if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        m_error = QStringLiteral("openssl %1 failed: %2")
                      .arg(args.join(QLatin1Char(' ')), QString::fromLocal8Bit(p.readAllStandardError()));
        return false;
    }
    return true;
}

TlsMaterial::TlsMaterial()
{
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("no temporary directory");
        return;
    }
    QFile ext(path(QStringLiteral("server.ext")));
    if (ext.open(QIODevice::WriteOnly))
        ext.write("subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n");
    ext.close();
    const QString days = QStringLiteral("2");
    auto ca = [&](const QString& name, const QString& cn) {
        return openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                        QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-keyout"),
                        name + QStringLiteral(".key"), QStringLiteral("-out"), name + QStringLiteral(".crt"),
                        QStringLiteral("-days"), days, QStringLiteral("-subj"), QStringLiteral("/CN=") + cn});
    };
    auto leaf = [&](const QString& name, const QString& cn, bool withExt) {
        if (!openssl({QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                      QStringLiteral("-nodes"), QStringLiteral("-keyout"), name + QStringLiteral(".key"),
                      QStringLiteral("-out"), name + QStringLiteral(".csr"), QStringLiteral("-subj"),
                      QStringLiteral("/CN=") + cn}))
            return false;
        QStringList sign{QStringLiteral("x509"),
                         QStringLiteral("-req"),
                         QStringLiteral("-in"),
                         name + QStringLiteral(".csr"),
                         QStringLiteral("-CA"),
                         QStringLiteral("ca.crt"),
                         QStringLiteral("-CAkey"),
                         QStringLiteral("ca.key"),
                         QStringLiteral("-CAcreateserial"),
                         QStringLiteral("-out"),
                         name + QStringLiteral(".crt"),
                         QStringLiteral("-days"),
                         days};
        if (withExt)
            sign << QStringLiteral("-extfile") << QStringLiteral("server.ext");
        return openssl(sign);
    };
    ca(QStringLiteral("ca"), QStringLiteral("LockScope Test CA")) &&
        ca(QStringLiteral("other-ca"), QStringLiteral("Somebody Else's CA")) &&
        leaf(QStringLiteral("server"), QStringLiteral("localhost"), true) &&
        leaf(QStringLiteral("client"), QStringLiteral("lockscope-test-client"), false);
}

} // namespace lockscope::test
