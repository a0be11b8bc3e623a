// SPDX-License-Identifier: Apache-2.0
#include "connections/secretstore.h"

#include <qt6keychain/keychain.h>

#include <QHash>
#include <QPointer>

namespace lockscope {

const QString SecretStore::service = QStringLiteral("LockScope");

void SecretStore::write(const QString& key, const QString& secret, QObject* context, Written done)
{
    auto* job = new QKeychain::WritePasswordJob(service);
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // a clear-text fallback is exactly what must not happen
    job->setKey(key);
    job->setTextData(secret);
    QObject::connect(job, &QKeychain::Job::finished, context, [job, done](QKeychain::Job*) {
        const bool failed = job->error() != QKeychain::NoError;
        done(failed ? job->errorString() : QString(), job->error() == QKeychain::NoBackendAvailable ||
                                                          job->error() == QKeychain::NotImplemented ||
                                                          (failed && job->error() == QKeychain::OtherError));
    });
    job->start();
}

void SecretStore::read(const QString& key, QObject* context, Read done)
{
    auto* job = new QKeychain::ReadPasswordJob(service);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    QObject::connect(job, &QKeychain::Job::finished, context, [job, done](QKeychain::Job*) {
        const bool failed = job->error() != QKeychain::NoError;
        done(failed ? QString() : job->textData(), failed ? job->errorString() : QString(),
             job->error() == QKeychain::NoBackendAvailable || job->error() == QKeychain::NotImplemented);
    });
    job->start();
}

namespace {

// GUI thread only, like the dialogs that use it.
QHash<QString, QString>& sessionSecrets()
{
    static QHash<QString, QString> secrets;
    return secrets;
}

} // namespace

void SecretStore::keepForSession(const QString& key, const QString& secret)
{
    sessionSecrets().insert(key, secret);
}

QString SecretStore::sessionSecret(const QString& key)
{
    return sessionSecrets().value(key);
}

void SecretStore::forgetSessionSecret(const QString& key)
{
    sessionSecrets().remove(key);
}

void SecretStore::remove(const QString& key)
{
    auto* job = new QKeychain::DeletePasswordJob(service);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    job->start();
}

} // namespace lockscope
