// SPDX-License-Identifier: Apache-2.0
// How the options a process was started with combine with a connection profile chosen later
// (docs/manual/configuration.md, "Launch options and connection profiles"): the profile brings the masters,
// the launch keeps the rest, --timeout-ms and --tls-* apply to the profile's masters, and read-only only
// tightens.
#include "connections/profilestore.h"
#include "session/launchoptions.h"
#include "support/testregistry.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

namespace tst_uilaunchconfig {

using namespace lockscope;

namespace {

ConnectionProfile profile(bool readOnly, bool locked)
{
    ConnectionProfile p;
    p.name = QStringLiteral("p");
    p.readOnly = readOnly;
    p.readOnlyLocked = locked;
    MasterEntry plain;
    plain.url = QStringLiteral("redis://10.0.0.9:6379");
    MasterEntry tls;
    tls.url = QStringLiteral("rediss://10.0.0.10:6380");
    tls.caFile = QStringLiteral("/profile/ca.pem");
    tls.certFile = QStringLiteral("/profile/cert.pem");
    p.masters << plain << tls;
    return p;
}

LaunchOptions parse(const QStringList& args)
{
    Result<LaunchOptions> options = LaunchOptions::parse(QStringList{QStringLiteral("lockscope")} + args);
    if (!options)
        qFatal("%s", qPrintable(options.error().message));
    return *options;
}

} // namespace

class TestUiLaunchConfig : public QObject
{
    Q_OBJECT

private slots:
    void profileBringsMastersLaunchKeepsTheRest();
    void readOnlyLaunchWins();
    void lockedProfileBindsTheProcess();
    void plainReadOnlyProfileDoesNot();
    void profilePatternsBetweenConfigFileAndCommandLine();
    void profilePatternsAreSaved();
    void profileScanRateBetweenConfigFileAndCommandLine();
    void productionProfileOpensLockedAndUnlocksForTheSession();
    void dbNamesTheRecordingToReviewOrToRecordInto();

private:
    QTemporaryDir m_dir;
};

void TestUiLaunchConfig::profileBringsMastersLaunchKeepsTheRest()
{
    const QString ca = m_dir.filePath(QStringLiteral("launch-ca.pem"));
    QFile(ca).open(QIODevice::WriteOnly);
    const QString config = m_dir.filePath(QStringLiteral("config.json"));
    {
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"json({"masters": ["redis://10.0.0.1"], "redlock": {"retryCount": 7}, "timeoutMs": 900,
                           "ownerRules": [{"keys": "*", "pattern": "^(?<owner>x)"}]})json");
    }
    LaunchOptions options = parse({QStringLiteral("--config"), config, QStringLiteral("--pattern"),
                                   QStringLiteral("mine:*"), QStringLiteral("--audit-log"),
                                   QStringLiteral("/var/audit.jsonl"), QStringLiteral("--tls-ca"), ca});
    const Result<LockScopeConfig> chosen = ProfileStore::toConfig(profile(false, false), {});
    QVERIFY(chosen);
    const LockScopeConfig c = options.launch.combine(*chosen, false);
    QCOMPARE(c.masters.size(), 2);
    QCOMPARE(c.masters.at(0).url.toString(), QStringLiteral("redis://10.0.0.9:6379"));
    QCOMPARE(c.monitor.patterns, QList<ScanPattern>{"mine:*"});
    QCOMPARE(c.ownerRules.size(), 1);
    QCOMPARE(c.redlock.retryCount, 7);
    QCOMPARE(c.auditLogPath, QStringLiteral("/var/audit.jsonl"));
    QCOMPARE(c.masters.at(0).commandTimeoutMs, 900); // the file's timeout, no --timeout-ms
    QCOMPARE(c.masters.at(1).tls.caFile, ca);        // --tls-ca replaces the profile's CA ...
    QCOMPARE(c.masters.at(1).tls.certFile, QStringLiteral("/profile/cert.pem")); // ... and only that
    QVERIFY(!c.readOnly);

    options = parse({QStringLiteral("-m"), QStringLiteral("redis://10.0.0.1"), QStringLiteral("--timeout-ms"),
                     QStringLiteral("333"), QStringLiteral("--tls-insecure")});
    const LockScopeConfig d = options.launch.combine(*chosen, false);
    QCOMPARE(d.masters.at(0).commandTimeoutMs, 333);
    QCOMPARE(d.masters.at(0).connectTimeoutMs, 333);
    QVERIFY(d.masters.at(1).tls.insecure);
    QCOMPARE(d.masters.at(1).tls.caFile, QStringLiteral("/profile/ca.pem"));
}

void TestUiLaunchConfig::readOnlyLaunchWins()
{
    for (const QStringList& how :
         {QStringList{QStringLiteral("--read-only")}, QStringList{QStringLiteral("--config"), QString()}}) {
        QStringList args = how;
        if (args.last().isEmpty()) {
            args.last() = m_dir.filePath(QStringLiteral("ro.json"));
            QFile file(args.last());
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(R"({"readOnly": true})");
        }
        LaunchOptions options = parse(args);
        const Result<LockScopeConfig> writable = ProfileStore::toConfig(profile(false, false), {});
        QVERIFY(writable);
        QVERIFY2(options.launch.combine(*writable, false).readOnly, qPrintable(args.join(QLatin1Char(' '))));
        QVERIFY(options.launch.combine(*writable, false).readOnly); // and again
        QVERIFY(options.launch.tightened(*writable).readOnly);
    }
}

void TestUiLaunchConfig::lockedProfileBindsTheProcess()
{
    LaunchOptions options = parse({});
    const Result<LockScopeConfig> locked = ProfileStore::toConfig(profile(false, true), {});
    const Result<LockScopeConfig> writable = ProfileStore::toConfig(profile(false, false), {});
    QVERIFY(locked && writable);
    QVERIFY(!options.launch.combine(*writable, false).readOnly);
    QVERIFY(options.launch.combine(*locked, true).readOnly);
    QVERIFY(options.launch.isReadOnlyForGood());
    QVERIFY(options.launch.combine(*writable, false).readOnly);
}

void TestUiLaunchConfig::plainReadOnlyProfileDoesNot()
{
    LaunchOptions options = parse({});
    const Result<LockScopeConfig> readOnly = ProfileStore::toConfig(profile(true, false), {});
    const Result<LockScopeConfig> writable = ProfileStore::toConfig(profile(false, false), {});
    QVERIFY(readOnly && writable);
    QVERIFY(options.launch.combine(*readOnly, false).readOnly);
    QVERIFY(!options.launch.combine(*writable, false).readOnly);
}

void TestUiLaunchConfig::profilePatternsBetweenConfigFileAndCommandLine()
{
    const QString config = m_dir.filePath(QStringLiteral("patterns.json"));
    {
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"json({"patterns": ["file:*"]})json");
    }
    ConnectionProfile withPatterns = profile(false, false);
    withPatterns.patterns = {ScanPattern("job:*"), ScanPattern("*", PatternMode::Discover)};
    const Result<LockScopeConfig> chosen = ProfileStore::toConfig(withPatterns, {});
    QVERIFY(chosen);
    QCOMPARE(chosen->monitor.patterns, withPatterns.patterns);
    const Result<LockScopeConfig> plain = ProfileStore::toConfig(profile(false, false), {});

    // The profile knows its servers' keys better than the --config file ...
    LaunchOptions options = parse({QStringLiteral("--config"), config});
    QCOMPARE(options.launch.combine(*chosen, false, withPatterns.patterns).monitor.patterns,
             withPatterns.patterns);
    // ... a profile without patterns leaves the file's ...
    QCOMPARE(options.launch.combine(*plain, false, {}).monitor.patterns, QList<ScanPattern>{"file:*"});
    // ... or the defaults.
    options = parse({});
    QCOMPARE(options.launch.combine(*plain, false, {}).monitor.patterns, MonitorSettings().patterns);
    // The command line wins over both, --pattern or --discover.
    options =
        parse({QStringLiteral("--config"), config, QStringLiteral("--discover"), QStringLiteral("x:*")});
    QCOMPARE(options.launch.combine(*chosen, false, withPatterns.patterns).monitor.patterns,
             (QList<ScanPattern>{ScanPattern("x:*", PatternMode::Discover)}));
    options = parse({QStringLiteral("--pattern"), QStringLiteral("y:*")});
    QCOMPARE(options.launch.combine(*chosen, false, withPatterns.patterns).monitor.patterns,
             QList<ScanPattern>{"y:*"});
}

void TestUiLaunchConfig::profileScanRateBetweenConfigFileAndCommandLine()
{
    const QString config = m_dir.filePath(QStringLiteral("rate.json"));
    {
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"json({"scanRate": 20000})json");
    }
    const Result<LockScopeConfig> chosen = ProfileStore::toConfig(profile(false, false), {});
    QVERIFY(chosen);
    // Default: paced.
    QCOMPARE(parse({}).launch.combine(*chosen, false).monitor.scanRate, ScanRate::automatic());
    // The file's, unless the profile has its own ...
    LaunchOptions options = parse({QStringLiteral("--config"), config});
    QCOMPARE(options.launch.combine(*chosen, false).monitor.scanRate, ScanRate::limit(20000));
    QCOMPARE(options.launch.combine(*chosen, false, {}, ScanRate::max()).monitor.scanRate, ScanRate::max());
    // ... and the command line's over both.
    options =
        parse({QStringLiteral("--config"), config, QStringLiteral("--scan-rate"), QStringLiteral("50k")});
    QCOMPARE(options.launch.combine(*chosen, false, {}, ScanRate::max()).monitor.scanRate,
             ScanRate::limit(50000));
    QVERIFY(!LaunchOptions::parse(
        {QStringLiteral("lockscope"), QStringLiteral("--scan-rate"), QStringLiteral("fast")}));

    // Saved with the profile; a profile without one keeps none.
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uilaunchconfig"));
    QSettings().clear();
    ConnectionProfile lab = profile(false, false);
    lab.name = QStringLiteral("lab");
    lab.scanRate = ScanRate::max();
    ProfileStore::save({profile(false, false), lab});
    const QList<ConnectionProfile> loaded = ProfileStore::load();
    QCOMPARE(loaded.size(), 2);
    QVERIFY(!loaded.at(0).scanRate);
    QCOMPARE(loaded.at(1).scanRate, std::optional<ScanRate>(ScanRate::max()));
    QSettings().clear();
}

void TestUiLaunchConfig::profilePatternsAreSaved()
{
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uilaunchconfig"));
    QSettings().clear();
    ConnectionProfile withPatterns = profile(false, false);
    withPatterns.name = QStringLiteral("jobs");
    withPatterns.patterns = {ScanPattern("job:*"), ScanPattern("*", PatternMode::Discover)};
    ProfileStore::save({profile(false, false), withPatterns});
    const QList<ConnectionProfile> loaded = ProfileStore::load();
    QCOMPARE(loaded.size(), 2);
    QCOMPARE(loaded.at(0).patterns, QList<ScanPattern>());
    QCOMPARE(loaded.at(1).patterns, withPatterns.patterns);

    // A profile saved before profiles had patterns: loaded with none, so the defaults apply.
    QSettings().clear();
    {
        QSettings settings;
        settings.beginWriteArray(QStringLiteral("profiles"), 1);
        settings.setArrayIndex(0);
        settings.setValue(QStringLiteral("name"), QStringLiteral("old"));
        settings.beginWriteArray(QStringLiteral("masters"), 1);
        settings.setArrayIndex(0);
        settings.setValue(QStringLiteral("url"), QStringLiteral("redis://10.0.0.1:6379"));
        settings.endArray();
        settings.endArray();
    }
    const QList<ConnectionProfile> old = ProfileStore::load();
    QCOMPARE(old.size(), 1);
    QVERIFY(old.first().patterns.isEmpty());
    const Result<LockScopeConfig> config = ProfileStore::toConfig(old.first(), {});
    QVERIFY(config);
    QCOMPARE(config->monitor.patterns, MonitorSettings().patterns);
    QSettings().clear();
}

// A production profile opens read-only; its writes can be unlocked for the session, unless the
// profile or the process is read-only by itself (docs/manual/safety.md, "Production profiles").
void TestUiLaunchConfig::productionProfileOpensLockedAndUnlocksForTheSession()
{
    LaunchOptions options = parse({});
    ConnectionProfile p = profile(false, false);
    p.production = true;
    const Result<LockScopeConfig> production = ProfileStore::toConfig(p, {});
    QVERIFY(production);
    const LockScopeConfig opened = options.launch.combine(*production, false);
    QVERIFY(opened.production);
    QVERIFY(opened.readOnly);
    QVERIFY(!options.launch.isReadOnlyForGood());
    const std::optional<LockScopeConfig> unlocked = options.launch.unlocked(opened);
    QVERIFY(unlocked);
    QVERIFY(!unlocked->readOnly);
    QVERIFY(unlocked->production);
    QVERIFY(!options.launch.tightened(*unlocked).readOnly);
    QCOMPARE(unlocked->masters.size(), opened.masters.size());

    // Nothing to unlock on a profile that is not production, even a read-only one.
    const Result<LockScopeConfig> readOnly = ProfileStore::toConfig(profile(true, false), {});
    QVERIFY(readOnly);
    QVERIFY(!options.launch.unlocked(options.launch.combine(*readOnly, false)));
    // A production profile that is read-only by itself stays read-only.
    ConnectionProfile readOnlyProduction = p;
    readOnlyProduction.readOnly = true;
    const LockScopeConfig both =
        options.launch.combine(*ProfileStore::toConfig(readOnlyProduction, {}), false);
    QVERIFY(both.readOnly);
    QVERIFY(!options.launch.unlocked(both));
    // ... and the production profile chosen after it can be unlocked again.
    QVERIFY(options.launch.unlocked(options.launch.combine(*production, false)));
    // A process started read-only, or bound by a locked profile, stays read-only.
    LaunchOptions readOnlyLaunch = parse({QStringLiteral("--read-only")});
    QVERIFY(!readOnlyLaunch.launch.unlocked(readOnlyLaunch.launch.combine(*production, false)));
    const Result<LockScopeConfig> locked = ProfileStore::toConfig(profile(false, true), {});
    QVERIFY(locked);
    options.launch.combine(*locked, true);
    QVERIFY(!options.launch.unlocked(options.launch.combine(*production, false)));

    // The mark is saved with the profile.
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uilaunchconfig"));
    QSettings().clear();
    ProfileStore::save({profile(false, false), p});
    const QList<ConnectionProfile> loaded = ProfileStore::load();
    QCOMPARE(loaded.size(), 2);
    QVERIFY(!loaded.at(0).production);
    QVERIFY(loaded.at(1).production);
    QVERIFY(!loaded.at(1).isReadOnly());
    QSettings().clear();
}

LOCKSCOPE_TEST_MAIN(TestUiLaunchConfig)

void TestUiLaunchConfig::dbNamesTheRecordingToReviewOrToRecordInto()
{
    // Without masters --db is reviewed, a file or a team database alike (issue #45).
    const QString url = QStringLiteral("postgresql://ops@127.0.0.1:1/locks");
    const Result<LaunchOptions> review =
        LaunchOptions::parse({QStringLiteral("lockscope"), QStringLiteral("--db"), url});
    QVERIFY2(review, review ? "" : qPrintable(review.error().message));
    QCOMPARE(review->reviewPath, url);
    QVERIFY(review->recordingPath.isEmpty());
    QVERIFY(review->config.readOnly);
    // With masters the window records into it.
    const Result<LaunchOptions> record =
        LaunchOptions::parse({QStringLiteral("lockscope"), QStringLiteral("-m"),
                              QStringLiteral("redis://127.0.0.1:1"), QStringLiteral("--db"), url});
    QVERIFY2(record, record ? "" : qPrintable(record.error().message));
    QCOMPARE(record->recordingPath, url);
    QVERIFY(record->reviewPath.isEmpty());
    QVERIFY(!record->config.readOnly);
    const Result<LaunchOptions> file = LaunchOptions::parse(
        {QStringLiteral("lockscope"), QStringLiteral("--db"), m_dir.filePath(QStringLiteral("r.sqlite"))});
    QVERIFY(file);
    QCOMPARE(file->reviewPath, m_dir.filePath(QStringLiteral("r.sqlite")));
    // Refused, saying why: a URL of another scheme (never a file name), a team URL that is not
    // whole, recording nowhere, and the demo's own recording.
    const auto refusal = [](const QStringList& args) {
        const Result<LaunchOptions> r = LaunchOptions::parse(QStringList{QStringLiteral("lockscope")} + args);
        return r ? QString() : r.error().message;
    };
    QVERIFY2(refusal({QStringLiteral("--db"), QStringLiteral("mysql://ops@h/locks")})
                 .contains(QLatin1String("mysql://")),
             qPrintable(refusal({QStringLiteral("--db"), QStringLiteral("mysql://ops@h/locks")})));
    QVERIFY(refusal({QStringLiteral("--db"), QStringLiteral("postgresql://127.0.0.1/locks")})
                .contains(QLatin1String("no user")));
    QVERIFY(refusal({QStringLiteral("-m"), QStringLiteral("redis://127.0.0.1:1"),
                     QStringLiteral("--no-record"), QStringLiteral("--db"), url})
                .contains(QLatin1String("--no-record")));
    QVERIFY(
        refusal({QStringLiteral("--demo"), QStringLiteral("--db"), url}).contains(QLatin1String("--demo")));
    QVERIFY(!QDir(QDir::currentPath()).exists(QStringLiteral("mysql:")));
}

} // namespace tst_uilaunchconfig

#include "tst_uilaunchconfig.moc"
