// SPDX-License-Identifier: Apache-2.0
#include "connections/connectioneditor.h"
#include "session/launchoptions.h"
#include "support/testregistry.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uiconnectioneditor {

using namespace lockscope;

class TestUiConnectionEditor : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void validation_data();
    void validation();
    void okFollowsTheInput();
    void commandLineLikeLockctl_data();
    void commandLineLikeLockctl();

private:
    QTemporaryDir m_dir;
    QString m_pem;
};

void TestUiConnectionEditor::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_pem = m_dir.filePath(QStringLiteral("ca.pem"));
    QFile f(m_pem);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n");
}

void TestUiConnectionEditor::validation_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("ca");
    QTest::addColumn<QString>("cert");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("env");
    QTest::addColumn<QString>("problemContains"); // empty: accepted

    const QString missing = m_dir.filePath(QStringLiteral("nowhere.pem"));
    QTest::newRow("plain url") << "redis://127.0.0.1:6379/0"
                               << ""
                               << ""
                               << ""
                               << ""
                               << "";
    QTest::newRow("unix socket") << "unix:///tmp/redis.sock"
                                 << ""
                                 << ""
                                 << ""
                                 << ""
                                 << "";
    QTest::newRow("tls with a CA file") << "rediss://cache.example:6380" << m_pem << ""
                                        << ""
                                        << ""
                                        << "";
    QTest::newRow("password from the environment") << "redis://h:6379"
                                                   << ""
                                                   << ""
                                                   << ""
                                                   << "REDIS_PW"
                                                   << "";
    QTest::newRow("empty") << ""
                           << ""
                           << ""
                           << ""
                           << ""
                           << "URL";
    QTest::newRow("wrong scheme") << "http://h:6379"
                                  << ""
                                  << ""
                                  << ""
                                  << ""
                                  << "scheme";
    QTest::newRow("port too large") << "redis://h:99999"
                                    << ""
                                    << ""
                                    << ""
                                    << ""
                                    << "port";
    QTest::newRow("port not a number") << "redis://h:abc"
                                       << ""
                                       << ""
                                       << ""
                                       << ""
                                       << "port";
    QTest::newRow("port zero") << "redis://h:0"
                               << ""
                               << ""
                               << ""
                               << ""
                               << "ort";
    QTest::newRow("password in the url") << "redis://:hunter2@h:6379"
                                         << ""
                                         << ""
                                         << ""
                                         << ""
                                         << "password field";
    QTest::newRow("missing CA file") << "rediss://h:6380" << missing << ""
                                     << ""
                                     << ""
                                     << "does not exist";
    QTest::newRow("missing client key") << "rediss://h:6380"
                                        << "" << m_pem << missing << ""
                                        << "does not exist";
    QTest::newRow("certificate without key") << "rediss://h:6380"
                                             << "" << m_pem << ""
                                             << ""
                                             << "needs its key";
    QTest::newRow("TLS files on a plain url") << "redis://h:6379" << m_pem << ""
                                              << ""
                                              << ""
                                              << "rediss://";
    QTest::newRow("bad variable name") << "redis://h:6379"
                                       << ""
                                       << ""
                                       << ""
                                       << "1-PW"
                                       << "environment variable";
}

void TestUiConnectionEditor::validation()
{
    QFETCH(QString, url);
    QFETCH(QString, ca);
    QFETCH(QString, cert);
    QFETCH(QString, key);
    QFETCH(QString, env);
    QFETCH(QString, problemContains);
    // Every member named: GCC 12 warns about a designated initialiser that leaves one out.
    const MasterEntry e{.url = url,
                        .user = {},
                        .caFile = ca,
                        .certFile = cert,
                        .keyFile = key,
                        .insecure = false,
                        .passwordEnv = env,
                        .passwordInKeychain = false};
    const QString problem = ConnectionEditor::problem(e);
    if (problemContains.isEmpty())
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    else
        QVERIFY2(problem.contains(problemContains, Qt::CaseInsensitive), qPrintable(problem));
    // The password never leaks into the message.
    QVERIFY(!problem.contains(QStringLiteral("hunter2")));
}

void TestUiConnectionEditor::okFollowsTheInput()
{
    ConnectionEditor editor;
    auto* ok = editor.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled()); // empty
    editor.urlEdit()->setText(QStringLiteral("redis://h:70000"));
    QVERIFY(!ok->isEnabled());
    QVERIFY(!editor.problemLabel()->text().isEmpty());
    editor.urlEdit()->setText(QStringLiteral("rediss://h:6380"));
    QVERIFY(ok->isEnabled());
    QVERIFY(editor.problemLabel()->text().isEmpty());
    editor.caEdit()->setText(m_dir.filePath(QStringLiteral("gone.pem")));
    QVERIFY(!ok->isEnabled());
    QVERIFY(editor.problemLabel()->text().contains(QStringLiteral("gone.pem")));
    editor.caEdit()->setText(m_pem);
    QVERIFY(ok->isEnabled());
    QCOMPARE(editor.entry().caFile, m_pem);
}

void TestUiConnectionEditor::commandLineLikeLockctl_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("masters");
    QTest::addColumn<bool>("readOnly");
    QTest::addColumn<QString>("error");
    QTest::newRow("three masters") << QStringList{"-m",          "redis://a:1", "-m",
                                                  "redis://b:2", "--master",    "redis://c:3"}
                                   << 3 << false << "";
    QTest::newRow("read-only") << QStringList{"-m", "redis://a:1", "--read-only"} << 1 << true << "";
    QTest::newRow("bad url") << QStringList{"-m", "redis://a:notaport"} << 0 << false << "port";
    QTest::newRow("missing tls file") << QStringList{"-m", "rediss://a:1", "--tls-ca", "/nonexistent/ca.pem"}
                                      << 0 << false << "does not exist";
    QTest::newRow("bad timeout") << QStringList{"-m", "redis://a:1", "--timeout-ms", "0"} << 0 << false
                                 << "timeout";
    QTest::newRow("missing config") << QStringList{"--config", "/nonexistent/lockscope.json"} << 0 << false
                                    << "nonexistent";
}

void TestUiConnectionEditor::commandLineLikeLockctl()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, masters);
    QFETCH(bool, readOnly);
    QFETCH(QString, error);
    const Result<LaunchOptions> options =
        LaunchOptions::parse(QStringList{QStringLiteral("lockscope")} + arguments);
    if (!error.isEmpty()) {
        QVERIFY(!options.ok());
        QVERIFY2(options.error().message.contains(error, Qt::CaseInsensitive),
                 qPrintable(options.error().message));
        return;
    }
    QVERIFY2(options.ok(), qPrintable(options.ok() ? QString() : options.error().message));
    QCOMPARE(options->config.masters.size(), masters);
    QCOMPARE(options->config.readOnly, readOnly);
    QVERIFY(options->auditLogPath.endsWith(QStringLiteral("lockscope/audit.jsonl")));
}

LOCKSCOPE_TEST_MAIN(TestUiConnectionEditor)

} // namespace tst_uiconnectioneditor

#include "tst_uiconnectioneditor.moc"
