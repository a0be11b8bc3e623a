// SPDX-License-Identifier: Apache-2.0
// The Debian package of the build tree under test: made with cpack (the rules scripts/package.sh
// uses for its Release tree), checked as Debian checks a package, then unpacked into a throw-away
// root and run from there.
#include "support/lockctlrun.h"
#include "support/processrun.h"
#include "support/redisserver.h"
#include "support/testpaths.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

using namespace lockscope::test;

namespace {

const QString appId = QStringLiteral("io.github.lockscope.LockScope");
const QList<int> iconSizes{16, 22, 24, 32, 48, 64, 128, 256};

QString binaryDir()
{
    return buildPath();
}

// The width and height a PNG's IHDR chunk states (0x0 when it is no PNG).
// The files of a tree, as absolute paths below it ("/usr/bin/lockctl"), sorted.
QStringList filesUnder(const QString& root)
{
    QStringList out;
    for (QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();)
        out << it.next().mid(root.size());
    out.sort();
    return out;
}

QSize pngSize(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray head = f.read(24);
    if (head.size() < 24 || !head.startsWith("\x89PNG\r\n\x1a\n") || head.mid(12, 4) != "IHDR")
        return {};
    return QSize(int(qFromBigEndian<quint32>(head.constData() + 16)),
                 int(qFromBigEndian<quint32>(head.constData() + 20)));
}

QString field(const QString& deb, const char* name)
{
    return QString::fromUtf8(
               runProcess(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), deb, QLatin1String(name)}).out)
        .trimmed();
}

} // namespace

class TestPackage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fieldsAndVersion();
    void fileList();
    void cmakeInstallGivesTheSameFiles();
    void desktopEntryAndMetainfoValidate();
    void lintianIsClean();
    void installedLockctlRunsAgainstARealMaster();
    void installedManPagesRender();
    void installedLockscopeStartsOffscreen();
    void installedBashCompletionLoadsByName();

private:
    QTemporaryDir m_dir;
    QString m_deb;
    QString m_root;
};

void TestPackage::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // cpack on this build tree: the programs are stripped copies, the package goes to a directory
    // of this test's own (the build tree's own package directory is scripts/package.sh's).
    const ProcessRun cpack =
        runProcess(QStringLiteral(LOCKSCOPE_CPACK),
                   {QStringLiteral("--config"), binaryDir() + QStringLiteral("/CPackConfig.cmake"),
                    QStringLiteral("-B"), m_dir.filePath(QStringLiteral("cpack"))},
                   {}, binaryDir(), 240000);
    QVERIFY2(cpack.code == 0, qPrintable(cpack.describe()));
    const QRegularExpression generated(QStringLiteral("package: (\\S+\\.deb) generated"));
    const QRegularExpressionMatch m = generated.match(QString::fromUtf8(cpack.out));
    QVERIFY2(m.hasMatch(), qPrintable(cpack.describe()));
    m_deb = m.captured(1);
    QVERIFY2(QFileInfo(m_deb).fileName().startsWith(QStringLiteral("lockscope_") + LOCKSCOPE_VERSION),
             qPrintable(m_deb));

    m_root = m_dir.filePath(QStringLiteral("root"));
    const ProcessRun x = runProcess(QStringLiteral("dpkg"), {QStringLiteral("-x"), m_deb, m_root});
    QVERIFY2(x.code == 0, qPrintable(x.describe()));
}

void TestPackage::fieldsAndVersion()
{
    QCOMPARE(field(m_deb, "Package"), QStringLiteral("lockscope"));
    // One version: project(VERSION), with the Debian revision after it.
    QCOMPARE(field(m_deb, "Version"), QStringLiteral(LOCKSCOPE_VERSION "-1"));
    const QString depends = field(m_deb, "Depends");
    // Computed by dpkg-shlibdeps from the programs, plus the plugins Qt loads at run time.
    for (const char* package : {"libqt6core6", "libqt6widgets6", "libhiredis0.14", "libc6", "qt6-qpa-plugins",
                                "libqt6svg6", "libqt6sql6-sqlite"})
        QVERIFY2(depends.contains(QLatin1String(package)),
                 qPrintable(package + (QLatin1String(": ") + depends)));
    QCOMPARE(field(m_deb, "Recommends"), QStringLiteral("redis-server"));
    QCOMPARE(field(m_deb, "Section"), QStringLiteral("database"));
    QVERIFY(field(m_deb, "Maintainer").contains(QLatin1Char('@')));
    QVERIFY(field(m_deb, "Homepage").startsWith(QLatin1String("https://")));
    const QString description = field(m_deb, "Description");
    QVERIFY2(description.count(QLatin1Char('\n')) >= 5, qPrintable(description));

    // The AppStream release and the Debian changelog name the same version.
    QFile metainfo(m_root + QStringLiteral("/usr/share/metainfo/%1.metainfo.xml").arg(appId));
    QVERIFY(metainfo.open(QIODevice::ReadOnly));
    const QRegularExpression release(QStringLiteral("<release version=\"([^\"]+)\""));
    QCOMPARE(release.match(QString::fromUtf8(metainfo.readAll())).captured(1),
             QStringLiteral(LOCKSCOPE_VERSION));
    const ProcessRun changelog = runProcess(
        QStringLiteral("gzip"),
        {QStringLiteral("-dc"), m_root + QStringLiteral("/usr/share/doc/lockscope/changelog.Debian.gz")});
    QVERIFY2(changelog.out.startsWith("lockscope (" LOCKSCOPE_VERSION "-1) "),
             qPrintable(changelog.describe()));
}

void TestPackage::fileList()
{
    const ProcessRun list = runProcess(QStringLiteral("dpkg-deb"), {QStringLiteral("-c"), m_deb});
    QVERIFY2(list.code == 0, qPrintable(list.describe()));
    QStringList files;
    for (const QByteArray& line : list.out.split('\n'))
        if (!line.isEmpty() && !line.endsWith('/'))
            files << QString::fromUtf8(line.mid(line.indexOf("./") + 1));
    QStringList expected{QStringLiteral("/usr/bin/lockctl"),
                         QStringLiteral("/usr/bin/lockscope"),
                         QStringLiteral("/usr/share/applications/%1.desktop").arg(appId),
                         QStringLiteral("/usr/share/metainfo/%1.metainfo.xml").arg(appId),
                         QStringLiteral("/usr/share/icons/hicolor/scalable/apps/%1.svg").arg(appId),
                         QStringLiteral("/usr/share/man/man1/lockctl.1.gz"),
                         QStringLiteral("/usr/share/man/man1/lockscope.1.gz"),
                         QStringLiteral("/usr/share/bash-completion/completions/lockctl"),
                         QStringLiteral("/usr/share/zsh/vendor-completions/_lockctl"),
                         QStringLiteral("/usr/share/doc/lockscope/copyright"),
                         QStringLiteral("/usr/share/doc/lockscope/changelog.Debian.gz"),
                         QStringLiteral("/usr/share/doc/lockscope/README.md"),
                         QStringLiteral("/usr/share/doc/lockscope/docs/manual/README.md"),
                         QStringLiteral("/usr/share/lockscope/prometheus/lockscope-alerts.yml"),
                         QStringLiteral("/usr/share/lockscope/grafana/lockscope-dashboard.json"),
                         QStringLiteral("/usr/lib/systemd/system/lockscope-serve.service"),
                         QStringLiteral("/usr/share/doc/lockscope/examples/README"),
                         QStringLiteral("/usr/share/lintian/overrides/lockscope")};
    for (int size : iconSizes)
        expected << QStringLiteral("/usr/share/icons/hicolor/%1x%1/apps/%2.png").arg(size).arg(appId);
    for (const QString& path : expected)
        QVERIFY2(files.contains(path),
                 qPrintable(path + QLatin1String(" missing from:\n") + files.join('\n')));
    for (const QString& path : files)
        QVERIFY2(path.startsWith(QLatin1String("/usr/")) && !path.startsWith(QLatin1String("/usr/local/")),
                 qPrintable(path));
    // Each size is what its directory says (the icon theme specification's lookup relies on it).
    for (int size : iconSizes) {
        const QString png =
            m_root + QStringLiteral("/usr/share/icons/hicolor/%1x%1/apps/%2.png").arg(size).arg(appId);
        QCOMPARE(pngSize(png), QSize(size, size));
    }
    // At least one example configuration, each of which the configuration loader reads
    // (tst_configexamples checks them from the source tree).
    const QStringList examples = QDir(m_root + QStringLiteral("/usr/share/doc/lockscope/examples"))
                                     .entryList({QStringLiteral("*.json")}, QDir::Files);
    QVERIFY2(examples.size() >= 3, qPrintable(examples.join(' ')));
}

// Other distributions package with `cmake --install`: the same files as the .deb.
void TestPackage::cmakeInstallGivesTheSameFiles()
{
    const QString staging = m_dir.filePath(QStringLiteral("staging"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DESTDIR"), staging);
    const ProcessRun install = runProcess(
        QStringLiteral(LOCKSCOPE_CMAKE),
        {QStringLiteral("--install"), binaryDir(), QStringLiteral("--prefix"), QStringLiteral("/usr")}, env);
    QVERIFY2(install.code == 0, qPrintable(install.describe()));
    QCOMPARE(filesUnder(staging), filesUnder(m_root));
}

void TestPackage::desktopEntryAndMetainfoValidate()
{
    const QString desktop = m_root + QStringLiteral("/usr/share/applications/%1.desktop").arg(appId);
    const ProcessRun validate = runProcess(QStringLiteral("desktop-file-validate"), {desktop});
    // Clean: no error, warning or hint.
    QVERIFY2(validate.code == 0 && validate.out.isEmpty() && validate.err.isEmpty(),
             qPrintable(validate.describe()));
    QFile entry(desktop);
    QVERIFY(entry.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(entry.readAll());
    QVERIFY2(text.contains(QStringLiteral("\nIcon=%1\n").arg(appId)), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("\nExec=lockscope")), qPrintable(text));

    const ProcessRun appstream =
        runProcess(QStringLiteral("appstreamcli"),
                   {QStringLiteral("validate"), QStringLiteral("--no-net"),
                    m_root + QStringLiteral("/usr/share/metainfo/%1.metainfo.xml").arg(appId)});
    QVERIFY2(appstream.code == 0, qPrintable(appstream.describe()));
    // Only the pedantic remark on the capitals of the reverse-DNS id (as the example has them).
    QVERIFY2(!appstream.out.contains("\nW:") && !appstream.out.contains("\nE:") &&
                 !appstream.out.startsWith("W:") && !appstream.out.startsWith("E:") &&
                 !appstream.out.startsWith("I:"),
             qPrintable(appstream.describe()));
}

void TestPackage::lintianIsClean()
{
    // No error and no warning; the warnings the package keeps are overridden in the package
    // (packaging/lintian-overrides) and listed in docs/development.md with their reasons.
    const ProcessRun lintian =
        runProcess(QStringLiteral("lintian"),
                   {QStringLiteral("--fail-on"), QStringLiteral("error,warning"), m_deb}, {}, {}, 240000);
    QVERIFY2(lintian.code == 0, qPrintable(lintian.describe()));
    QVERIFY2(!lintian.out.contains("E: ") && !lintian.out.contains("W: "), qPrintable(lintian.describe()));
}

void TestPackage::installedLockctlRunsAgainstARealMaster()
{
    const QString lockctl = m_root + QStringLiteral("/usr/bin/lockctl");
    const ProcessRun version = runProcess(lockctl, {QStringLiteral("--version")});
    QCOMPARE(version.code, 0);
    QCOMPARE(version.out, QByteArray("lockctl " LOCKSCOPE_VERSION "\n"));

    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QCOMPARE(
        server.command({"SET", "lock:packaged", "0123456789abcdef0123456789abcdef", "PX", "60000"}).string,
        QByteArray("OK"));
    // From an empty directory, which it must leave empty.
    QTemporaryDir cwd;
    QVERIFY(cwd.isValid());
    const ProcessRun list = runProcess(
        lockctl, testPasswordArgs() << QStringLiteral("-m") << server.url(false) << QStringLiteral("list"),
        testPasswordEnvironment(), cwd.path());
    QVERIFY2(list.code == 0, qPrintable(list.describe()));
    QVERIFY2(list.out.contains("lock:packaged") && list.out.contains("held"), qPrintable(list.describe()));
    QVERIFY2(!list.out.contains('\x1b'), qPrintable(list.describe())); // stdout is a pipe: no colour
    // A write: its audit record goes to $XDG_STATE_HOME/lockscope/, nothing to the current directory.
    QProcessEnvironment env = testPasswordEnvironment();
    const QString state = m_dir.filePath(QStringLiteral("state"));
    env.insert(QStringLiteral("XDG_STATE_HOME"), state);
    const ProcessRun acquire =
        runProcess(lockctl,
                   testPasswordArgs() << QStringLiteral("-m") << server.url(false)
                                      << QStringLiteral("acquire") << QStringLiteral("lock:written")
                                      << QStringLiteral("--ttl") << QStringLiteral("60000"),
                   env, cwd.path());
    QVERIFY2(acquire.code == 0, qPrintable(acquire.describe()));
    QVERIFY(QFile::exists(state + QStringLiteral("/lockscope/audit.jsonl")));
    QVERIFY2(
        QDir(cwd.path()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
        qPrintable(
            QDir(cwd.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).join(' ')));
}

void TestPackage::installedManPagesRender()
{
    for (const QString& page : {QStringLiteral("lockctl"), QStringLiteral("lockscope")}) {
        const ProcessRun man = runProcess(QStringLiteral("man"),
                                          {QStringLiteral("--warnings"), QStringLiteral("-E"),
                                           QStringLiteral("UTF-8"), QStringLiteral("-l"),
                                           m_root + QStringLiteral("/usr/share/man/man1/%1.1.gz").arg(page)});
        QVERIFY2(man.code == 0 && man.err.isEmpty(), qPrintable(page + QLatin1Char(' ') + man.describe()));
        QVERIFY2(man.out.startsWith(QByteArray(page.toUpper().toUtf8() + "(1)")), qPrintable(man.describe()));
        QVERIFY2(man.out.contains("\nNAME\n") && man.out.contains("\nEXIT STATUS\n"),
                 qPrintable(man.describe()));
    }
}

void TestPackage::installedLockscopeStartsOffscreen()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    const ProcessRun version =
        runProcess(m_root + QStringLiteral("/usr/bin/lockscope"), {QStringLiteral("--version")}, env);
    QVERIFY2(version.code == 0, qPrintable(version.describe()));
    // Its usage and version go to stderr (it is a window's program); Qt may say more there.
    const QByteArrayList lines = QByteArray(version.out + version.err).split('\n');
    QVERIFY2(lines.contains("lockscope " LOCKSCOPE_VERSION), qPrintable(version.describe()));
}

// bash-completion loads /usr/share/bash-completion/completions/lockctl by the command's name.
void TestPackage::installedBashCompletionLoadsByName()
{
    const QString loader = QStringLiteral("/usr/share/bash-completion/bash_completion");
    QVERIFY2(QFile::exists(loader), "bash-completion is not installed (scripts/install-deps.sh --tests)");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_DIRS"), m_root + QStringLiteral("/usr/share"));
    env.insert(QStringLiteral("PATH"),
               m_root + QStringLiteral("/usr/bin:") + env.value(QStringLiteral("PATH")));
    const ProcessRun bash = runProcess(
        QStringLiteral("bash"),
        {QStringLiteral("-c"),
         QStringLiteral(
             "source %1 && __load_completion lockctl && complete -p lockctl && "
             "COMP_WORDS=(lockctl '') COMP_CWORD=1 && _lockctl && printf '%s\\n' \"${COMPREPLY[@]}\"")
             .arg(loader)},
        env);
    QVERIFY2(bash.code == 0, qPrintable(bash.describe()));
    QVERIFY2(bash.out.contains("complete -F _lockctl lockctl"), qPrintable(bash.describe()));
    QVERIFY2(bash.out.contains("\nlist\n") && bash.out.contains("\nforce-release\n"),
             qPrintable(bash.describe()));
}

QTEST_GUILESS_MAIN(TestPackage)
#include "tst_package.moc"
