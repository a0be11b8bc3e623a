// SPDX-License-Identifier: Apache-2.0
// Nothing from a server reaches a terminal raw (#14): a key, a token and an owner holding ESC, CR,
// BEL, NUL and a right-to-left override, and a server whose error texts hold them, go through
// every lockctl command (text and JSON output, the force-release prompt on a pseudo-terminal,
// errors), and only their escaped form comes out. The escaped form types back: the commands are
// given the keys and tokens exactly as lockctl printed them. `lockctl history` reads a recording,
// a file anyone may have written, and escapes what it read there too (#39).
#include "base/bytesdisplay.h"
#include "record/recordingreader.h"
#include "record/recordingwriter.h"
#include "support/fakeredispeer.h"
#include "support/lockctlrun.h"
#include "support/rawtext.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace tst_lockctlescaping {

using namespace lockscope;
using namespace lockscope::test;

namespace {

const QByteArray& hostile = hostileBytes;
const QByteArray& key = hostileKey;
const QByteArray& ownerPart = hostileOwner;
const QByteArray& token = hostileToken;
const QByteArray otherToken = "new" + hostile + "/fedcba9876543210fedcba9876543210";
// LockScope's own "<owner>/<hex>" shape: the owner is decoded without any rule.
const QByteArray bidiKey = "lock:bidi";
const QByteArray bidiToken = "root\xe2\x80\xae"
                             "evil/00112233445566778899aabbccddeeff";

QString shown(const QByteArray& bytes)
{
    return escapeBytes(bytes);
}

QByteArray shownBytes(const QByteArray& bytes)
{
    return escapeBytes(bytes).toUtf8();
}

// Every string in a JSON document (keys too), checked as if printed.
QString rawTextInJson(const QJsonValue& value)
{
    if (value.isString())
        return rawTextIn(value.toString());
    if (value.isArray()) {
        for (const QJsonValue& v : value.toArray())
            if (const QString raw = rawTextInJson(v); !raw.isEmpty())
                return raw;
    } else if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (const QString raw = rawTextIn(it.key()); !raw.isEmpty())
                return raw;
            if (const QString raw = rawTextInJson(it.value()); !raw.isEmpty())
                return raw;
        }
    }
    return {};
}

// Both streams of a run; a JSON line is also checked string by string, since a control
// character inside a JSON string is printed as \u001b, not raw, yet is no less raw for the script
// that prints the value.
QString rawTextInRun(const LockctlRun& run)
{
    for (const QByteArray& stream : {run.out, run.err}) {
        if (const QString raw = rawTextIn(stream); !raw.isEmpty())
            return raw + QStringLiteral("\n") + run.describe();
        for (const QByteArray& line : stream.split('\n')) {
            if (!line.startsWith('{'))
                continue;
            if (line.contains("\\u"))
                return QStringLiteral("a \\u escape in JSON: ") + escapeBytes(line);
            const QJsonDocument doc = QJsonDocument::fromJson(line);
            if (const QString raw = rawTextInJson(doc.object()); !raw.isEmpty())
                return raw;
        }
    }
    return {};
}

class Cli
{
public:
    explicit Cli(const QStringList& urls, const QStringList& extra = {})
    {
        m_args << extra;
        for (const QString& url : urls)
            m_args << QStringLiteral("-m") << url;
        m_args << QStringLiteral("--audit-log") << m_dir.filePath(QStringLiteral("audit.jsonl"))
               << QStringLiteral("--timeout-ms") << QStringLiteral("1000");
        // An owner rule: the owner is read out of the token, whatever bytes it has.
        QFile config(m_dir.filePath(QStringLiteral("config.json")));
        if (config.open(QIODevice::WriteOnly))
            config.write(R"({"ownerRules": [{"keys": "*", "pattern": "^(?<owner>[^/]*)/"}]})");
        config.close();
        m_args << QStringLiteral("--config") << config.fileName();
    }
    QStringList args() const { return m_args; }

    LockctlRun operator()(const QStringList& args, int timeoutMs = 30000) const
    {
        return runLockctl(m_args + args, timeoutMs);
    }

private:
    QTemporaryDir m_dir;
    QStringList m_args;
};

// The group's URLs without the password, and --password-env for it: lockctl started by runLockctl
// or with testPasswordEnvironment() takes it from there, never from its arguments.
QStringList urlsOf(RedisServerGroup& group)
{
    QStringList urls;
    for (int i = 0; i < group.size(); ++i)
        urls << group.at(i).url(false);
    return urls;
}

void setEverywhere(RedisServerGroup& group, const QByteArray& k, const QByteArray& v)
{
    for (int i = 0; i < group.size(); ++i)
        group.at(i).command({"SET", k, v, "PX", "600000"});
}

} // namespace

class TestLockctlEscaping : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void listShowsTheEscapedForm();
    void watchShowsTheEscapedForm();
    void forceReleasePromptAndResults();
    void acquireExtendReleaseHold();
    void serverErrorTextsAreEscaped();
    void historyOfACraftedRecording();
    void recordedOwnersAndDetailsAreCapped();

private:
    RedisServerGroup m_group;
};

void TestLockctlEscaping::initTestCase()
{
    QVERIFY2(m_group.start(3), qPrintable(m_group.errorString()));
}

void TestLockctlEscaping::listShowsTheEscapedForm()
{
    setEverywhere(m_group, key, token);
    setEverywhere(m_group, bidiKey, bidiToken);
    Cli lockctl(urlsOf(m_group), testPasswordArgs());

    const LockctlRun text = lockctl({QStringLiteral("list")});
    QVERIFY2(text.code == 0, qPrintable(text.describe()));
    QVERIFY2(rawTextInRun(text).isEmpty(), qPrintable(rawTextInRun(text)));
    QVERIFY2(text.out.contains(shownBytes(key)), qPrintable(text.describe()));
    // The owner column, then the token column (cut at 45 characters, after the escaped owner).
    QVERIFY2(text.out.contains(QByteArray(shownBytes(ownerPart) + "  ")), qPrintable(text.describe()));
    QVERIFY2(text.out.contains(QByteArray(shownBytes(ownerPart + "/0123"))), qPrintable(text.describe()));
    QVERIFY2(text.out.contains("root\\xe2\\x80\\xaeevil  "), qPrintable(text.describe()));

    const LockctlRun json = lockctl({QStringLiteral("list"), QStringLiteral("--json")});
    QVERIFY2(json.code == 0, qPrintable(json.describe()));
    QVERIFY2(rawTextInRun(json).isEmpty(), qPrintable(rawTextInRun(json)));
    QJsonObject lock;
    QJsonObject bidiLock;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(json.out).object().value(QStringLiteral("locks")).toArray()) {
        if (v.toObject().value(QStringLiteral("resource")).toString() == shown(key))
            lock = v.toObject();
        if (v.toObject().value(QStringLiteral("resource")).toString() == shown(bidiKey))
            bidiLock = v.toObject();
    }
    QCOMPARE(lock.value(QStringLiteral("token")).toString(), shown(token));
    QCOMPARE(lock.value(QStringLiteral("owner")).toString(), shown(ownerPart));
    QCOMPARE(bidiLock.value(QStringLiteral("format")).toString(), QStringLiteral("lockscope"));
    QCOMPARE(bidiLock.value(QStringLiteral("owner")).toString(), QStringLiteral("root\\xe2\\x80\\xaeevil"));
}

void TestLockctlEscaping::watchShowsTheEscapedForm()
{
    for (const bool json : {false, true}) {
        setEverywhere(m_group, key, token);
        Cli lockctl(urlsOf(m_group), testPasswordArgs());
        QProcess watch;
        QStringList args = lockctl.args();
        watch.setProcessEnvironment(testPasswordEnvironment());
        if (json)
            args << QStringLiteral("--json");
        watch.start(lockctlPath(), args << QStringLiteral("watch"));
        QVERIFY(watch.waitForStarted());
        QByteArray out;
        // JSON doubles each backslash of the escaped form.
        auto form = [json](const QByteArray& bytes) {
            const QByteArray escaped = shownBytes(bytes);
            return json ? QByteArray(escaped).replace("\\", "\\\\") : escaped;
        };
        auto seen = [&](const QByteArray& what) {
            out += watch.readAllStandardOutput();
            return out.contains(what);
        };
        QTRY_VERIFY_WITH_TIMEOUT(seen(form(token).left(30)), 20000);
        setEverywhere(m_group, key, otherToken); // a "changed" event with the new token
        QTRY_VERIFY_WITH_TIMEOUT(seen(form(otherToken).left(30)), 20000);
        for (int i = 0; i < m_group.size(); ++i)
            m_group.at(i).command({"DEL", key});
        QTRY_VERIFY_WITH_TIMEOUT(seen("removed"), 20000);
        watch.terminate(); // the lockctl this test started; it stops on SIGTERM
        QVERIFY(watch.waitForFinished(int(lockscope::test::upperBoundMs(10000))));
        LockctlRun run;
        run.out = out + watch.readAllStandardOutput();
        run.err = watch.readAllStandardError();
        QVERIFY2(rawTextInRun(run).isEmpty(), qPrintable(rawTextInRun(run)));
        QVERIFY2(run.out.contains(form(key)), qPrintable(run.describe()));
        QVERIFY2(run.out.contains(form(ownerPart)), qPrintable(run.describe()));
    }
}

void TestLockctlEscaping::forceReleasePromptAndResults()
{
    setEverywhere(m_group, key, token);
    Cli lockctl(urlsOf(m_group), testPasswordArgs());
    const QString typedKey = shown(key);
    const QString typedToken = shown(token);

    // Not recognised as a lock (its value is no printable text): refused, and the refusal quotes
    // the key escaped.
    const LockctlRun refused =
        lockctl({QStringLiteral("force-release"), typedKey, QStringLiteral("--expect-token"), typedToken,
                 QStringLiteral("--yes")});
    QVERIFY2(refused.code == 4, qPrintable(refused.describe()));
    QVERIFY2(rawTextInRun(refused).isEmpty(), qPrintable(rawTextInRun(refused)));
    QVERIFY2(refused.out.contains(QByteArray("token=" + shownBytes(token))), qPrintable(refused.describe()));
    QVERIFY2(refused.out.contains(QByteArray("owner=\"" + shownBytes(ownerPart) + '"')),
             qPrintable(refused.describe()));
    QVERIFY2(refused.err.contains(shownBytes(key)), qPrintable(refused.describe()));

    // The confirmation prompt, on a pseudo-terminal (util-linux script(1)), answered "no".
    const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
    if (script.isEmpty()) {
        qWarning("script(1) is not installed: the prompt is not checked");
    } else {
        const LockctlRun run = runOnTerminal(lockctlPath(),
                                             lockctl.args() << QStringLiteral("force-release") << typedKey
                                                            << QStringLiteral("--expect-token") << typedToken
                                                            << QStringLiteral("--force-unknown"),
                                             testPasswordEnvironment(), "n\n");
        QVERIFY2(run.code == 1, qPrintable(run.describe()));
        QVERIFY2(run.out.contains("[y/N]"), qPrintable(run.describe()));
        QVERIFY2(rawTextInRun(run).isEmpty(), qPrintable(rawTextInRun(run)));
        QVERIFY2(run.out.contains(
                     QStringLiteral("Force-release %1 (only token %2)").arg(typedKey, typedToken).toUtf8()),
                 qPrintable(run.describe()));
        QCOMPARE(m_group.countOf(key), 3);
    }

    // Deleted, as typed; the results name the token that was there.
    const LockctlRun done =
        lockctl({QStringLiteral("force-release"), typedKey, QStringLiteral("--expect-token"), typedToken,
                 QStringLiteral("--force-unknown"), QStringLiteral("--yes")});
    QVERIFY2(done.code == 0, qPrintable(done.describe()));
    QVERIFY2(rawTextInRun(done).isEmpty(), qPrintable(rawTextInRun(done)));
    QVERIFY2(done.out.contains(QByteArray("deleted (token was " + shownBytes(token) + ')')),
             qPrintable(done.describe()));
    QCOMPARE(m_group.countOf(key), 0);

    setEverywhere(m_group, key, token);
    const LockctlRun json =
        lockctl({QStringLiteral("--json"), QStringLiteral("force-release"), typedKey,
                 QStringLiteral("--any-token"), QStringLiteral("--force-unknown"), QStringLiteral("--yes")});
    QVERIFY2(json.code == 0, qPrintable(json.describe()));
    QVERIFY2(rawTextInRun(json).isEmpty(), qPrintable(rawTextInRun(json)));
    const QJsonObject o = QJsonDocument::fromJson(json.out).object();
    QCOMPARE(o.value(QStringLiteral("resource")).toString(), typedKey);
    QCOMPARE(o.value(QStringLiteral("results"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("tokenBefore"))
                 .toString(),
             typedToken);
    QCOMPARE(m_group.countOf(key), 0);
}

void TestLockctlEscaping::acquireExtendReleaseHold()
{
    for (int i = 0; i < m_group.size(); ++i)
        m_group.at(i).command({"DEL", key});
    Cli lockctl(urlsOf(m_group), testPasswordArgs());
    const QString typedKey = shown(key);
    auto verifyClean = [](const LockctlRun& run) { return rawTextInRun(run); };

    // Our own lock on the hostile key; the owner given has a bidi override, which stays out of the token.
    const LockctlRun acquired =
        lockctl({QStringLiteral("acquire"), typedKey, QStringLiteral("--ttl"), QStringLiteral("60000"),
                 QStringLiteral("--owner"), QStringLiteral("ci\u202e\\")});
    QVERIFY2(acquired.code == 0, qPrintable(acquired.describe()));
    QVERIFY2(verifyClean(acquired).isEmpty(), qPrintable(verifyClean(acquired)));
    const QString printedToken = QString::fromUtf8(acquired.out.split('\n').value(0));
    QVERIFY2(printedToken.startsWith(QStringLiteral("ci_\\\\/")), qPrintable(acquired.describe()));
    QVERIFY2(acquired.out.contains(QByteArray("acquired " + shownBytes(key) + " on 3 of 3")),
             qPrintable(acquired.describe()));

    const LockctlRun busy =
        lockctl({QStringLiteral("acquire"), typedKey, QStringLiteral("--ttl"), QStringLiteral("60000"),
                 QStringLiteral("--retries"), QStringLiteral("0")});
    QVERIFY2(busy.code == 1, qPrintable(busy.describe()));
    QVERIFY2(verifyClean(busy).isEmpty(), qPrintable(verifyClean(busy)));

    const LockctlRun extended = lockctl({QStringLiteral("extend"), typedKey, QStringLiteral("--token"),
                                         printedToken, QStringLiteral("--ttl"), QStringLiteral("60000")});
    QVERIFY2(extended.code == 0, qPrintable(extended.describe()));
    QVERIFY2(verifyClean(extended).isEmpty(), qPrintable(verifyClean(extended)));
    QVERIFY2(extended.out.contains(QByteArray("extended " + shownBytes(key))),
             qPrintable(extended.describe()));

    const LockctlRun released =
        lockctl({QStringLiteral("release"), typedKey, QStringLiteral("--token"), printedToken});
    QVERIFY2(released.code == 0, qPrintable(released.describe()));
    QVERIFY2(verifyClean(released).isEmpty(), qPrintable(verifyClean(released)));
    QVERIFY2(released.out.contains(QByteArray("released " + shownBytes(key))),
             qPrintable(released.describe()));

    // Somebody else's hostile token, typed back as list printed it: it matches the bytes.
    for (const bool json : {false, true}) {
        setEverywhere(m_group, key, token);
        const QStringList mode = json ? QStringList{QStringLiteral("--json")} : QStringList();
        const LockctlRun extendedToo =
            lockctl(mode + QStringList{QStringLiteral("extend"), typedKey, QStringLiteral("--token"),
                                       shown(token), QStringLiteral("--ttl"), QStringLiteral("60000")});
        QVERIFY2(extendedToo.code == 0, qPrintable(extendedToo.describe()));
        QVERIFY2(verifyClean(extendedToo).isEmpty(), qPrintable(verifyClean(extendedToo)));
        const LockctlRun releasedToo = lockctl(
            mode + QStringList{QStringLiteral("release"), typedKey, QStringLiteral("--token"), shown(token)});
        QVERIFY2(releasedToo.code == 0, qPrintable(releasedToo.describe()));
        QVERIFY2(verifyClean(releasedToo).isEmpty(), qPrintable(verifyClean(releasedToo)));
    }
    QCOMPARE(m_group.countOf(key), 0);
    const LockctlRun wrong = lockctl({QStringLiteral("extend"), typedKey, QStringLiteral("--token"),
                                      shown(token), QStringLiteral("--ttl"), QStringLiteral("1000")});
    QVERIFY2(wrong.code == 1, qPrintable(wrong.describe()));
    QVERIFY2(verifyClean(wrong).isEmpty(), qPrintable(verifyClean(wrong)));

    const LockctlRun json =
        lockctl({QStringLiteral("--json"), QStringLiteral("acquire"), typedKey, QStringLiteral("--ttl"),
                 QStringLiteral("60000"), QStringLiteral("--owner"), QStringLiteral("a\\b")});
    QVERIFY2(json.code == 0, qPrintable(json.describe()));
    QVERIFY2(verifyClean(json).isEmpty(), qPrintable(verifyClean(json)));
    const QString jsonToken =
        QJsonDocument::fromJson(json.out).object().value(QStringLiteral("token")).toString();
    QVERIFY2(jsonToken.startsWith(QStringLiteral("a\\\\b/")), qPrintable(json.describe()));
    QCOMPARE(lockctl({QStringLiteral("release"), typedKey, QStringLiteral("--token"), jsonToken}).code, 0);

    // hold: the child gets the token in the form the other commands take; a held key is an error.
    const LockctlRun hold =
        lockctl({QStringLiteral("hold"), typedKey, QStringLiteral("--ttl"), QStringLiteral("5000"),
                 QStringLiteral("--owner"), QStringLiteral("a\\b"), QStringLiteral("--"),
                 QStringLiteral("sh"), QStringLiteral("-c"),
                 QStringLiteral("printf '%s %s\\n' \"$LOCKSCOPE_RESOURCE\" \"$LOCKSCOPE_TOKEN\"")});
    QVERIFY2(hold.code == 0, qPrintable(hold.describe()));
    QVERIFY2(verifyClean(hold).isEmpty(), qPrintable(verifyClean(hold)));
    QVERIFY2(hold.out.startsWith(QByteArray(shownBytes(key) + " a\\\\b/")), qPrintable(hold.describe()));
    setEverywhere(m_group, key, token);
    const LockctlRun holdBusy = lockctl({QStringLiteral("hold"), typedKey, QStringLiteral("--ttl"),
                                         QStringLiteral("5000"), QStringLiteral("--retries"),
                                         QStringLiteral("0"), QStringLiteral("--"), QStringLiteral("true")});
    QVERIFY2(holdBusy.code == 1, qPrintable(holdBusy.describe()));
    QVERIFY2(verifyClean(holdBusy).isEmpty(), qPrintable(verifyClean(holdBusy)));
    for (int i = 0; i < m_group.size(); ++i)
        m_group.at(i).command({"DEL", key});
}

// A server whose every answer is an error text with the hostile bytes in it: what lockctl says
// about it, on every command, shows them escaped.
void TestLockctlEscaping::serverErrorTextsAreEscaped()
{
    FakeRedisPeer peer(FakeRedisPeer::alwaysError("WRONGPASS " + hostile + " from the server"));
    QVERIFY(peer.isListening());
    const QByteArray escaped = shownBytes("WRONGPASS " + hostile + " from the server");
    const QString typedKey = shown(key);
    for (const bool withPassword : {false, true}) {
        Cli lockctl({peer.url(withPassword ? QStringLiteral("secret") : QString())});
        const QList<QStringList> commands{
            {QStringLiteral("list")},
            {QStringLiteral("--json"), QStringLiteral("list")},
            {QStringLiteral("acquire"), typedKey, QStringLiteral("--ttl"), QStringLiteral("1000"),
             QStringLiteral("--retries"), QStringLiteral("0")},
            {QStringLiteral("extend"), typedKey, QStringLiteral("--token"), shown(token),
             QStringLiteral("--ttl"), QStringLiteral("1000")},
            {QStringLiteral("release"), typedKey, QStringLiteral("--token"), shown(token)},
            {QStringLiteral("--json"), QStringLiteral("release"), typedKey, QStringLiteral("--token"),
             shown(token)},
            {QStringLiteral("force-release"), typedKey, QStringLiteral("--any-token"),
             QStringLiteral("--yes")},
            {QStringLiteral("--json"), QStringLiteral("force-release"), typedKey,
             QStringLiteral("--any-token"), QStringLiteral("--yes")},
            {QStringLiteral("hold"), typedKey, QStringLiteral("--ttl"), QStringLiteral("1000"),
             QStringLiteral("--retries"), QStringLiteral("0"), QStringLiteral("--"), QStringLiteral("true")},
        };
        for (const QStringList& args : commands) {
            const LockctlRun run = lockctl(args);
            const QString what =
                args.join(QLatin1Char(' ')) + (withPassword ? QStringLiteral(" (AUTH)") : QString());
            QVERIFY2(run.code != 0, qPrintable(what + QLatin1Char('\n') + run.describe()));
            QVERIFY2(rawTextInRun(run).isEmpty(), qPrintable(what + QLatin1Char('\n') + rawTextInRun(run)));
            const QByteArray all = run.out + run.err;
            QVERIFY2(all.contains(escaped) || all.contains(QByteArray(escaped).replace("\\", "\\\\")),
                     qPrintable(what + QLatin1Char('\n') + run.describe()));
        }
    }
}

void TestLockctlEscaping::historyOfACraftedRecording()
{
    // Clears the screen, retitles the terminal, hides what follows (ESC [8m), then a CSI and a NEL
    // as C1 code points (U+009B, U+0085), which QJsonDocument writes as they are. An older
    // LockScope stored TYPE replies and run_ids this way, raw; a copied file can hold anything.
    const QString controls =
        QStringLiteral("\x1b[2J\x1b]0;pwn\x07\x1b[8m") + QChar(0x9b) + QStringLiteral("31m") + QChar(0x85);
    const QByteArray escaped = "\\x1b[2J\\x1b]0;pwn\\x07\\x1b[8m\\xc2\\x9b31m\\xc2\\x85";
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("crafted.sqlite"));
    {
        RecordingWriter writer(options, std::make_shared<RecordingWriter::Counters>());
        writer.start({QStringLiteral("redis://evil") + controls + QStringLiteral(":6379")});
        RecordEvent acquired;
        acquired.kind = RecordEvent::Kind::Acquired;
        acquired.resource = "lock:hist";
        acquired.timeMs = QDateTime::currentMSecsSinceEpoch() - 10000;
        acquired.token = "0123456789abcdef0123456789abcdef";
        acquired.owner = QStringLiteral("deploy") + controls;
        acquired.holding = 1;
        acquired.holders = 1;
        RecordEvent typeChanged = acquired;
        typeChanged.kind = RecordEvent::Kind::TypeChanged;
        typeChanged.timeMs += 1000;
        typeChanged.master = 0;
        typeChanged.detail = QStringLiteral("string → ") + controls;
        RecordEvent restarted;
        restarted.kind = RecordEvent::Kind::MasterRestarted;
        restarted.timeMs = acquired.timeMs + 2000;
        restarted.master = 0;
        restarted.detail = QStringLiteral("run_id ") + controls;
        RecordEvent forced = acquired;
        forced.kind = RecordEvent::Kind::ForceReleased;
        forced.timeMs += 3000;
        forced.owner.clear();
        forced.auditId = QStringLiteral("id") + controls;
        writer.write({acquired, typeChanged, restarted, forced});
        writer.finish();
    }
    const QStringList history{QStringLiteral("history"), QStringLiteral("lock:hist"), QStringLiteral("--db"),
                              options.path};

    const LockctlRun text = runLockctl(history);
    QVERIFY2(text.code == 0, qPrintable(text.describe()));
    QVERIFY2(rawTextIn(text.out).isEmpty(),
             qPrintable(rawTextIn(text.out) + QLatin1Char('\n') + text.describe()));
    // Every field is there, escaped: the owner, both details, the audit id and the master's name.
    for (const QByteArray& field :
         QByteArrayList{"owner \"deploy" + escaped, "string → " + escaped, "run_id " + escaped,
                        "audit id" + escaped, "redis://evil" + escaped})
        QVERIFY2(text.out.contains(field),
                 qPrintable(escapeBytes(field) + QLatin1Char('\n') + text.describe()));

    const LockctlRun json = runLockctl(QStringList{QStringLiteral("--json")} + history);
    QVERIFY2(json.code == 0, qPrintable(json.describe()));
    QVERIFY2(rawTextIn(json.out).isEmpty(),
             qPrintable(rawTextIn(json.out) + QLatin1Char('\n') + json.describe()));
    // A control in a JSON string comes out as \u001b: raw again for whoever reads the value.
    QVERIFY2(!json.out.contains("\\u"), qPrintable(json.describe()));
    const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
    QVERIFY2(rawTextInJson(doc).isEmpty(), qPrintable(rawTextInJson(doc)));
    QCOMPARE(
        doc.value(QStringLiteral("episodes")).toArray().first()[QStringLiteral("owner")].toString().toUtf8(),
        "deploy" + escaped);
}

void TestLockctlEscaping::recordedOwnersAndDetailsAreCapped()
{
    // A holder writing megabyte values must not make each event of its lock a megabyte on disk.
    QTemporaryDir dir;
    RecorderOptions options;
    options.path = dir.filePath(QStringLiteral("long.sqlite"));
    {
        RecordingWriter writer(options, std::make_shared<RecordingWriter::Counters>());
        writer.start({QStringLiteral("redis://127.0.0.1:6379")});
        RecordEvent e;
        e.kind = RecordEvent::Kind::Acquired;
        e.resource = "lock:long";
        e.timeMs = QDateTime::currentMSecsSinceEpoch();
        e.token = "t";
        // A character beyond the BMP (two UTF-16 units) across the cut: never half of it.
        e.owner = QStringLiteral("o").repeated(511) + QStringLiteral("\U0001F512") +
                  QStringLiteral("x").repeated(100000);
        e.detail = QStringLiteral("d").repeated(100000);
        e.holding = 1;
        e.holders = 1;
        writer.write({e});
        writer.finish();
    }
    RecordingReader reader;
    QVERIFY(!reader.open(options.path));
    const Result<ResourceHistory> history = reader.history("lock:long");
    QVERIFY(history.ok());
    QCOMPARE(history->events.size(), 1);
    QCOMPARE(history->events.first().event.owner, QStringLiteral("o").repeated(511) + QStringLiteral("…"));
    QCOMPARE(history->events.first().event.detail, QStringLiteral("d").repeated(512) + QStringLiteral("…"));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestLockctlEscaping)

} // namespace tst_lockctlescaping

#include "tst_lockctlescaping.moc"
