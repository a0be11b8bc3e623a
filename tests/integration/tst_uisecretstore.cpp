// SPDX-License-Identifier: Apache-2.0
#include "connections/secretstore.h"
#include "support/privatesecretservice.h"
#include "support/testregistry.h"

#include <QApplication>
#include <QDirIterator>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <cstdio>

namespace tst_uisecretstore {

using namespace lockscope;
using lockscope::test::PrivateSecretService;

// SecretStore against a real Secret Service (gnome-keyring on a private session bus): passwords go
// into the keychain and come back, never land in a file in clear text, and can be removed.
class TestSecretStore : public QObject
{
    Q_OBJECT

public:
    explicit TestSecretStore(const PrivateSecretService* service) : m_service(service) {}

private slots:
    void writesReadsAndRemoves();
    void readsOfUnknownKeysFailClearly();

private:
    struct ReadResult
    {
        bool done = false;
        QString secret;
        QString error;
        bool noBackend = false;
    };
    ReadResult read(const QString& key);
    bool anyFileContains(const QByteArray& needle) const;

    const PrivateSecretService* m_service;
};

TestSecretStore::ReadResult TestSecretStore::read(const QString& key)
{
    ReadResult result;
    SecretStore::read(key, this, [&result](const QString& secret, const QString& error, bool noBackend) {
        result = {true, secret, error, noBackend};
    });
    if (!QTest::qWaitFor([&result] { return result.done; }, int(lockscope::test::upperBoundMs(15000))))
        result.error = QStringLiteral("the keychain did not answer");
    return result;
}

bool TestSecretStore::anyFileContains(const QByteArray& needle) const
{
    QDirIterator it(m_service->home(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            return true;
    }
    return false;
}

void TestSecretStore::writesReadsAndRemoves()
{
    const QString secret =
        QStringLiteral("s3cret-%1").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    const QString key = QStringLiteral("production/redis://127.0.0.1:6390");

    bool written = false;
    QString writeError;
    bool noBackend = true;
    SecretStore::write(key, secret, this, [&](const QString& error, bool none) {
        written = true;
        writeError = error;
        noBackend = none;
    });
    QVERIFY(QTest::qWaitFor([&] { return written; }, int(lockscope::test::upperBoundMs(15000))));
    QVERIFY2(writeError.isEmpty(), qPrintable(writeError));
    QVERIFY(!noBackend);

    const ReadResult back = read(key);
    QVERIFY2(back.error.isEmpty(), qPrintable(back.error));
    QCOMPARE(back.secret, secret);
    // The keyring stores it encrypted: no file under the private HOME holds it in clear.
    QVERIFY(!anyFileContains(secret.toUtf8()));

    SecretStore::remove(key);
    QTRY_VERIFY_WITH_TIMEOUT(!read(key).error.isEmpty(), 15000);
    QVERIFY(read(key).secret.isEmpty());
}

void TestSecretStore::readsOfUnknownKeysFailClearly()
{
    const ReadResult missing = read(QStringLiteral("no such profile/redis://127.0.0.1:1"));
    QVERIFY(missing.done);
    QVERIFY(missing.secret.isEmpty());
    QVERIFY(!missing.error.isEmpty());
    QVERIFY(!missing.noBackend); // a missing entry is not a missing keychain
}

namespace {

int runTest(int argc, char** argv)
{
    // The bus and the keyring come first: this process's session bus must be the private one.
    PrivateSecretService service;
    if (!service.start()) {
        std::fprintf(stderr, "FAIL: no private Secret Service: %s\n", qPrintable(service.errorString()));
        return 1;
    }
    QApplication app(argc, argv);
    TestSecretStore test(&service);
    return QTest::qExec(&test, argc, argv);
}

} // namespace

LOCKSCOPE_TEST_ENTRY(runTest)

} // namespace tst_uisecretstore

#include "tst_uisecretstore.moc"
