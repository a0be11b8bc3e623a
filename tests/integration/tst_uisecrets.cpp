// SPDX-License-Identifier: Apache-2.0
// Passwords never leak. lockctl (every command, failures included: wrong password, a password put
// in a URL by mistake, a bad config, a paused master, interrupted runs) and the window (offscreen,
// with exports, its models' text and tooltips, titles and saved settings) work against
// password-protected masters with distinctive passwords; then every output stream, the audit logs,
// the exported files, every file under the temporary HOME, and every Qt message this process logged
// are searched for them.
#include "config/configloader.h"
#include "connections/masterentry.h"
#include "connections/profilestore.h"
#include "locks/locktablemodel.h"
#include "masters/mastertablemodel.h"
#include "support/lockctlrun.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLineEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <csignal>

namespace tst_uisecrets {

using namespace lockscope;
using namespace lockscope::test;

namespace {

const QString secret = distinctTestPassword(QStringLiteral("LsPw-7Hq2-distinctive-secret"));
const QString wrongSecret = QStringLiteral("LsPw-9Wx4-wrong-but-secret");

QByteArray& loggedMessages()
{
    static QByteArray messages;
    return messages;
}

void captureMessage(QtMsgType, const QMessageLogContext&, const QString& text)
{
    loggedMessages() += text.toUtf8() + '\n';
    fprintf(stderr, "%s\n", qPrintable(text));
}

// Where `haystack` shows either password (also percent-encoded), or an empty string.
QString leak(const QByteArray& haystack)
{
    for (const QString& s : {secret, wrongSecret})
        if (haystack.contains(s.toUtf8()) || haystack.contains(QUrl::toPercentEncoding(s)))
            return s;
    return {};
}

} // namespace

class TestUiSecrets : public QObject
{
    Q_OBJECT

public:
    explicit TestUiSecrets(QString home) : m_home(std::move(home)) {}

private slots:
    void initTestCase();
    void lockctlNeverPrintsAPassword();
    void windowNeverShowsOrSavesAPassword();
    void nothingUnderHomeOrInTheLog();
    void tlsVerificationIsOnByDefault();

private:
    struct Output
    {
        QString what;
        QByteArray bytes;
    };
    // What a run must have done before "the password is not in its output" counts for anything: its
    // exit code, and patterns its standard output and error must match (empty: anything).
    struct Expect
    {
        int code = 0;
        QString out;
        QString err;
    };
    void runLockctl(const QString& what, const QStringList& args, const QString& password,
                    const Expect& expect, int interruptAfterMs = -1);

    QString m_home;
    RedisServerGroup m_group;
    QList<Output> m_outputs;
    QStringList m_unexpected; // runs that did not do what they were run for
};

void TestUiSecrets::initTestCase()
{
    RedisServerOptions options;
    options.password = secret;
    QVERIFY2(m_group.start(3, options), qPrintable(m_group.errorString()));
    for (int i = 0; i < 3; ++i)
        m_group.at(i).command({"SET", "lock:secret", "tok-s", "PX", "120000"});
}

void TestUiSecrets::runLockctl(const QString& what, const QStringList& args, const QString& password,
                               const Expect& expect, int interruptAfterMs)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LS_PW"), password);
    env.insert(QStringLiteral("HOME"), m_home);
    p.setProcessEnvironment(env);
    p.start(lockctlPath(), args);
    p.closeWriteChannel();
    QVERIFY(p.waitForStarted());
    if (interruptAfterMs >= 0) {
        QTest::qWait(interruptAfterMs); // let it run before the interruption under test
        ::kill(pid_t(p.processId()), SIGINT);
    }
    if (!p.waitForFinished(int(lockscope::test::upperBoundMs(30000)))) {
        p.kill();
        p.waitForFinished();
    }
    const QByteArray out = p.readAllStandardOutput();
    const QByteArray err = p.readAllStandardError();
    const auto matches = [](const QString& pattern, const QByteArray& bytes) {
        return pattern.isEmpty() || QRegularExpression(pattern).match(QString::fromUtf8(bytes)).hasMatch();
    };
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != expect.code || !matches(expect.out, out) ||
        !matches(expect.err, err))
        m_unexpected << QStringLiteral("%1: exit %2 (expected %3), stdout '%4' (expected /%5/), stderr '%6' "
                                       "(expected /%7/)")
                            .arg(what)
                            .arg(p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1)
                            .arg(expect.code)
                            .arg(QString::fromUtf8(out.left(300)), expect.out,
                                 QString::fromUtf8(err.left(300)), expect.err);
    m_outputs << Output{what + QStringLiteral(" (stdout)"), out}
              << Output{what + QStringLiteral(" (stderr)"), err};
}

void TestUiSecrets::lockctlNeverPrintsAPassword()
{
    QTemporaryDir dir;
    const QString audit = dir.filePath(QStringLiteral("audit.jsonl"));
    QStringList masters;
    for (int i = 0; i < 3; ++i)
        masters << QStringLiteral("-m") << m_group.at(i).url(false);
    const QStringList base = masters + QStringList{QStringLiteral("--password-env"), QStringLiteral("LS_PW"),
                                                   QStringLiteral("--audit-log"),    audit,
                                                   QStringLiteral("--timeout-ms"),   QStringLiteral("1000")};
    runLockctl(QStringLiteral("list"), base + QStringList{QStringLiteral("list")}, secret,
               {0, QStringLiteral("lock:secret.*tok-s"), QStringLiteral("^$")});
    runLockctl(QStringLiteral("list --json"),
               base + QStringList{QStringLiteral("--json"), QStringLiteral("list")}, secret,
               {0, QStringLiteral("\"token\":\"tok-s\""), QStringLiteral("^$")});
    runLockctl(QStringLiteral("watch, interrupted"),
               base + QStringList{QStringLiteral("--json"), QStringLiteral("watch")}, secret,
               {0, QStringLiteral("\"state\":\"up\""), QString()}, 1500);
    runLockctl(QStringLiteral("acquire"),
               base + QStringList{QStringLiteral("acquire"), QStringLiteral("lock:mine"),
                                  QStringLiteral("--ttl"), QStringLiteral("60000")},
               secret,
               {0, QStringLiteral("^\\S+/[0-9a-f]{32}\nacquired lock:\\S+ on"), QStringLiteral("^$")});
    const QByteArray token = m_outputs.at(m_outputs.size() - 2).bytes.split('\n').value(0).trimmed();
    QVERIFY2(!token.isEmpty(), m_outputs.last().bytes.constData());
    runLockctl(QStringLiteral("extend"),
               base + QStringList{QStringLiteral("extend"), QStringLiteral("lock:mine"),
                                  QStringLiteral("--token"), QString::fromUtf8(token),
                                  QStringLiteral("--ttl"), QStringLiteral("60000")},
               secret, {0, QStringLiteral("extended lock:mine on 3 of 3 masters"), QStringLiteral("^$")});
    runLockctl(QStringLiteral("release"),
               base + QStringList{QStringLiteral("release"), QStringLiteral("lock:mine"),
                                  QStringLiteral("--token"), QString::fromUtf8(token)},
               secret, {0, QStringLiteral("released"), QStringLiteral("^$")});
    runLockctl(QStringLiteral("force-release"),
               base + QStringList{QStringLiteral("force-release"), QStringLiteral("lock:secret"),
                                  QStringLiteral("--expect-token"), QStringLiteral("tok-s"),
                                  QStringLiteral("--yes")},
               secret, {0, QStringLiteral("token=tok-s"), QString()});
    runLockctl(QStringLiteral("hold"),
               base + QStringList{QStringLiteral("hold"), QStringLiteral("lock:held"),
                                  QStringLiteral("--ttl"), QStringLiteral("5000"), QStringLiteral("--"),
                                  QStringLiteral("sh"), QStringLiteral("-c"),
                                  QStringLiteral("kill -SEGV $$")},
               secret, {128 + SIGSEGV, QString(), QString()}); // the command ran: the lock was taken
    // Failures: a wrong password, a password typed into the URL, a paused master, bad configurations.
    runLockctl(QStringLiteral("wrong password"), base + QStringList{QStringLiteral("list")}, wrongSecret,
               {3, QStringLiteral("on 0 of 3 masters"), QStringLiteral("WRONGPASS")});
    runLockctl(QStringLiteral("wrong password, acquire"),
               base + QStringList{QStringLiteral("acquire"), QStringLiteral("lock:denied"),
                                  QStringLiteral("--ttl"), QStringLiteral("60000")},
               wrongSecret, {3, QStringLiteral("^$"), QStringLiteral("WRONGPASS")});
    QStringList inUrl;
    for (int i = 0; i < 3; ++i)
        inUrl << QStringLiteral("-m")
              << QStringLiteral("redis://:%1@127.0.0.1:%2").arg(wrongSecret).arg(m_group.at(i).port());
    runLockctl(
        QStringLiteral("password in the URL"),
        inUrl + QStringList{QStringLiteral("--audit-log"), audit, QStringLiteral("--timeout-ms"),
                            QStringLiteral("1000"), QStringLiteral("acquire"), QStringLiteral("lock:url"),
                            QStringLiteral("--ttl"), QStringLiteral("1000")},
        QString(), {3, QStringLiteral("^$"), QStringLiteral("WRONGPASS")}); // the URL's password was sent
    runLockctl(QStringLiteral("password in a URL with a bad port"),
               {QStringLiteral("-m"), QStringLiteral("redis://:%1@127.0.0.1:99999").arg(secret),
                QStringLiteral("list")},
               QString(), {2, QStringLiteral("^$"), QStringLiteral("bad port '99999'")});
    runLockctl(QStringLiteral("password in a URL with a bad host"),
               {QStringLiteral("-m"), QStringLiteral("redis://user:%1@bad host:6379").arg(secret),
                QStringLiteral("list")},
               QString(), {2, QStringLiteral("^$"), QStringLiteral("bad host name")});
    QFile config(dir.filePath(QStringLiteral("bad.json")));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(QStringLiteral("{\"masters\": [\"redis://:%1@127.0.0.1:0\"],\n \"password\": \"%1\"}\n")
                     .arg(secret)
                     .toUtf8());
    config.close();
    runLockctl(QStringLiteral("bad config"),
               {QStringLiteral("--config"), config.fileName(), QStringLiteral("list")}, QString(),
               {2, QStringLiteral("^$"), QStringLiteral("unknown field \"password\"")});
    m_group.at(2).pause();
    runLockctl(
        QStringLiteral("paused master"), base + QStringList{QStringLiteral("list")}, secret,
        // A paused server's kernel still accepts the connection: which step times out depends on timing.
        {0, QStringLiteral("on 2 of 3 masters"), QStringLiteral("no (connection|reply) within 1000 ms")});
    runLockctl(QStringLiteral("paused master, acquire"),
               base + QStringList{QStringLiteral("acquire"), QStringLiteral("lock:paused"),
                                  QStringLiteral("--ttl"), QStringLiteral("60000")},
               secret,
               {0, QStringLiteral("^\\S+/[0-9a-f]{32}\nacquired lock:\\S+ on"),
                QStringLiteral("not on every master")});
    m_group.at(2).resume();

    // Every run did what it was run for: a run that failed early proves nothing about its output.
    QCOMPARE(m_outputs.size(), 2 * 16);
    QVERIFY2(m_unexpected.isEmpty(), qPrintable(m_unexpected.join(QLatin1Char('\n'))));

    QFile auditFile(audit);
    QVERIFY(auditFile.open(QIODevice::ReadOnly));
    const QByteArray auditBytes = auditFile.readAll();
    QVERIFY(auditBytes.count('\n') >= 5);                         // the writes above were audited ...
    QVERIFY2(leak(auditBytes).isEmpty(), auditBytes.constData()); // ... without a password
    for (const Output& o : std::as_const(m_outputs))
        QVERIFY2(leak(o.bytes).isEmpty(),
                 qPrintable(o.what + QStringLiteral(": ") + QString::fromUtf8(o.bytes)));
    // The failures did say what went wrong.
    bool saidWrongPassword = false;
    for (const Output& o : std::as_const(m_outputs))
        saidWrongPassword |= o.what.startsWith(QStringLiteral("wrong password")) &&
                             (o.bytes.contains("WRONGPASS") || o.bytes.contains("password"));
    QVERIFY(saidWrongPassword);
}

void TestUiSecrets::windowNeverShowsOrSavesAPassword()
{
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uisecrets"));
    // A saved profile, as the Connections dialog would keep it: the password only as a variable name.
    ConnectionProfile profile;
    profile.name = QStringLiteral("production");
    for (int i = 0; i < 3; ++i) {
        MasterEntry e;
        e.url = m_group.at(i).url(false);
        e.passwordEnv = QStringLiteral("LS_WINDOW_PW");
        profile.masters << e;
    }
    ProfileStore::save({profile});
    qputenv("LS_WINDOW_PW", secret.toUtf8());
    for (int i = 0; i < 3; ++i)
        m_group.at(i).command({"SET", "lock:window", "tok-w", "PX", "120000"});
    Result<LockScopeConfig> config = ProfileStore::toConfig(profile, {});
    QVERIFY(config);
    // The third master gets a wrong password: its errors must not show that one either.
    config->masters[2].url.setPassword(wrongSecret);
    for (ConnectionOptions& m : config->masters) {
        m.commandTimeoutMs = 1000;
        m.connectTimeoutMs = 1000;
        m.reconnectInitialMs = 50;
        m.reconnectMaxMs = 200;
    }
    config->monitor.pollIntervalMs = 200;
    QTemporaryDir dir;
    const QString audit = dir.filePath(QStringLiteral("audit.jsonl"));
    QByteArray shown;
    {
        MainWindow window(*config, audit);
        window.show();
        QSignalSpy scanned(&window, &MainWindow::initialScanFinished);
        QVERIFY(scanned.wait(int(lockscope::test::upperBoundMs(10000))) || window.isInitialScanFinished());
        QTRY_VERIFY_WITH_TIMEOUT(window.lockModel()->rowCount() > 0, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(window.masterModel()->upCount(), 2, 5000);

        // Exports, through the real file dialog.
        for (const QString& format : {QStringLiteral("CSV"), QStringLiteral("JSON")}) {
            QAction* action = nullptr;
            for (QAction* a : window.findChildren<QAction*>())
                if (a->text().contains(format) && a->text().contains(QStringLiteral("xport")) &&
                    !a->text().contains(QStringLiteral("istory")))
                    action = a;
            QVERIFY2(action, qPrintable(format));
            const QString path = dir.filePath(QStringLiteral("export.") + format.toLower());
            // The action opens a modal file dialog: answer it from inside its event loop once it shows.
            QTimer answer;
            connect(&answer, &QTimer::timeout, this, [path, &answer] {
                for (QWidget* w : QApplication::topLevelWidgets())
                    if (auto* dialog = qobject_cast<QFileDialog*>(w); dialog && dialog->isVisible()) {
                        answer.stop();
                        // As a user would: type the path into the name field and press Return.
                        auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
                        QVERIFY(name);
                        name->setText(path);
                        QTest::keyClick(name, Qt::Key_Return);
                    }
            });
            answer.start(50);
            action->trigger();
            QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(path), 5000);
            QFile exported(path);
            QVERIFY(exported.open(QIODevice::ReadOnly));
            const QByteArray bytes = exported.readAll();
            QVERIFY2(bytes.contains("lock:window"), bytes.constData());
            QVERIFY2(leak(bytes).isEmpty(), bytes.constData());
        }

        // Everything the window shows: titles, and every model's text and tooltips.
        for (QWidget* w : QApplication::allWidgets())
            shown += w->windowTitle().toUtf8() + '\n' + w->toolTip().toUtf8() + '\n';
        for (QAbstractItemModel* model : window.findChildren<QAbstractItemModel*>())
            for (int r = 0; r < model->rowCount(); ++r)
                for (int c = 0; c < model->columnCount(); ++c)
                    for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(Qt::StatusTipRole)})
                        shown += model->data(model->index(r, c), role).toString().toUtf8() + '\n';
        QVERIFY(shown.contains("WRONGPASS") || shown.contains("password")); // it did say why
        window.close();
    }
    QVERIFY2(leak(shown).isEmpty(), shown.constData());
    QFile auditFile(audit);
    if (auditFile.open(QIODevice::ReadOnly))
        QVERIFY(leak(auditFile.readAll()).isEmpty());
}

void TestUiSecrets::nothingUnderHomeOrInTheLog()
{
    int files = 0;
    QDirIterator it(m_home, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (!f.open(QIODevice::ReadOnly))
            continue;
        ++files;
        QVERIFY2(leak(f.readAll()).isEmpty(), qPrintable(f.fileName()));
    }
    QVERIFY(files > 0); // the settings file (profiles, layout) and the default audit log at least
    QVERIFY2(leak(loggedMessages()).isEmpty(), loggedMessages().constData());
}

void TestUiSecrets::tlsVerificationIsOnByDefault()
{
    QVERIFY(!TlsOptions().insecure);
    QVERIFY(!MasterEntry().insecure);
    Result<LockScopeConfig> config = ConfigLoader::fromJson(R"({"masters": ["rediss://h:6380"]})");
    QVERIFY(config);
    QVERIFY(config->masters.at(0).url.isTls());
    QVERIFY(!config->masters.at(0).tls.insecure);
}

namespace {

int runTest(int argc, char** argv)
{
    // A private HOME and XDG directories before anything reads them: settings and default audit logs
    // land where the test can search them, never in the user's.
    QTemporaryDir home;
    if (!home.isValid())
        return 1;
    qputenv("HOME", home.path().toUtf8());
    qputenv("XDG_CONFIG_HOME", (home.path() + QStringLiteral("/.config")).toUtf8());
    qputenv("XDG_DATA_HOME", (home.path() + QStringLiteral("/.local/share")).toUtf8());
    qInstallMessageHandler(captureMessage);
    QApplication app(argc, argv);
    TestUiSecrets test(home.path());
    return QTest::qExec(&test, argc, argv);
}

} // namespace

LOCKSCOPE_TEST_ENTRY(runTest)

} // namespace tst_uisecrets

#include "tst_uisecrets.moc"
