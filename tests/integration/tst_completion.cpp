// SPDX-License-Identifier: Apache-2.0
// The shell completion for lockctl (#17), as installed by the package: bash's completion function
// driven as bash drives it (COMP_WORDS split at ':' and '=', COMP_CWORD), for commands, options,
// option values and a resource read live from a real master named on the line; zsh's loads with
// compinit and lists the commands and options. A resource is a key a server chose: the line bash
// completes must name exactly that key when an interactive shell runs it (#39).
#include "base/bytesdisplay.h"
#include "support/lockctlrun.h"
#include "support/processrun.h"
#include "support/redisserver.h"
#include "support/testpaths.h"
#include "support/testregistry.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

namespace tst_completion {

using namespace lockscope;
using namespace lockscope::test;

namespace {

QString completionFile(const char* name)
{
    return sourcePath(QStringLiteral("resources/completion/") + QLatin1String(name));
}

// COMPREPLY for `words` with the cursor in the last one.
QStringList bashComplete(const QStringList& words)
{
    const QStringList args =
        QStringList{
            QStringLiteral("-c"),
            QStringLiteral("source \"$0\" || exit 9; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _lockctl; "
                           "printf '%s\\n' \"${COMPREPLY[@]}\""),
            completionFile("lockctl.bash")} +
        words;
    const ProcessRun run = runProcess(QStringLiteral("bash"), args, testPasswordEnvironment());
    if (run.code != 0 || !run.err.isEmpty())
        qWarning("%s", qPrintable(run.describe()));
    QStringList out = QString::fromUtf8(run.out).split(QLatin1Char('\n'));
    out.removeAll(QString());
    return out;
}

// The words bash makes of "redis://127.0.0.1:PORT": COMP_WORDBREAKS holds ':'.
QStringList urlWords(const RedisServer& server)
{
    return {QStringLiteral("redis"), QStringLiteral(":"), QStringLiteral("//127.0.0.1"), QStringLiteral(":"),
            QString::number(server.port())};
}

} // namespace

class TestCompletion : public QObject
{
    Q_OBJECT

private slots:
    void bashCompletesCommands();
    void bashCompletesOptionsOfTheCommand();
    void bashCompletesOptionValues();
    void bashCompletesLiveResources();
    void bashQuotesHostileResourcesAsOneWord();
    void zshLoadsAndListsCommandsAndOptions();
};

void TestCompletion::bashCompletesCommands()
{
    const QStringList all = bashComplete({lockctlPath(), QString()});
    for (const char* command : {"list", "watch", "acquire", "extend", "release", "force-release", "hold"})
        QVERIFY2(all.contains(QLatin1String(command)), qPrintable(all.join(' ')));
    QCOMPARE(bashComplete({lockctlPath(), QStringLiteral("fo")}),
             QStringList{QStringLiteral("force-release")});
    // After global options and their values, still the command.
    QCOMPARE(bashComplete({lockctlPath(), QStringLiteral("--timeout-ms"), QStringLiteral("500"),
                           QStringLiteral("wa")}),
             QStringList{QStringLiteral("watch")});
}

void TestCompletion::bashCompletesOptionsOfTheCommand()
{
    const QStringList list = bashComplete({lockctlPath(), QStringLiteral("list"), QStringLiteral("--")});
    for (const char* option : {"--pattern", "--discover", "--color", "--master", "--config", "--json"})
        QVERIFY2(list.contains(QLatin1String(option)), qPrintable(list.join(' ')));
    QVERIFY2(!list.contains(QStringLiteral("--ttl")), qPrintable(list.join(' '))); // acquire's, not list's
    const QStringList force = bashComplete(
        {lockctlPath(), QStringLiteral("force-release"), QStringLiteral("lock:a"), QStringLiteral("--e")});
    QCOMPARE(force, QStringList{QStringLiteral("--expect-token")});
}

void TestCompletion::bashCompletesOptionValues()
{
    QCOMPARE(bashComplete({lockctlPath(), QStringLiteral("list"), QStringLiteral("--color"), QString()}),
             (QStringList{QStringLiteral("auto"), QStringLiteral("always"), QStringLiteral("never")}));
    // "--color=al" reaches the function as three words.
    QCOMPARE(bashComplete({lockctlPath(), QStringLiteral("watch"), QStringLiteral("--color"),
                           QStringLiteral("="), QStringLiteral("al")}),
             QStringList{QStringLiteral("always")});
    QCOMPARE(bashComplete(
                 {lockctlPath(), QStringLiteral("--password-env"), QStringLiteral("LOCKSCOPE_TEST_PASS")}),
             QStringList{QString::fromLatin1(testPasswordVar)});
}

void TestCompletion::bashCompletesLiveResources()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    for (const QByteArray& key : {QByteArray("lock:orders"), QByteArray("lock:order-lines"),
                                  QByteArray("lock:with space"), QByteArray("mutex:other")})
        QCOMPARE(server.command({"SET", key, "0123456789abcdef0123456789abcdef", "PX", "600000"}).string,
                 QByteArray("OK"));
    const QStringList line = QStringList{lockctlPath()} << testPasswordArgs() << QStringLiteral("-m")
                                                        << urlWords(server);

    // "lock:or": bash replaces only what follows the last ':'.
    QCOMPARE(bashComplete(line + QStringList{QStringLiteral("release"), QStringLiteral("lock"),
                                             QStringLiteral(":"), QStringLiteral("or")}),
             (QStringList{QStringLiteral("order-lines"), QStringLiteral("orders")}));
    // A name with a space comes back quoted for the shell.
    QCOMPARE(bashComplete(line + QStringList{QStringLiteral("force-release"), QStringLiteral("lock"),
                                             QStringLiteral(":"), QStringLiteral("w")}),
             QStringList{QStringLiteral("with\\ space")});
    const QStringList every = bashComplete(line + QStringList{QStringLiteral("extend"), QString()});
    QVERIFY2(every.contains(QStringLiteral("mutex:other")) && every.size() == 4, qPrintable(every.join('|')));
    // Only the first argument is a resource; and no masters on the line, no lookup.
    QCOMPARE(
        bashComplete(line + QStringList{QStringLiteral("release"), QStringLiteral("lock:orders"), QString()}),
        QStringList());
    QCOMPARE(bashComplete({lockctlPath(), QStringLiteral("release"), QString()}), QStringList());
}

void TestCompletion::bashQuotesHostileResourcesAsOneWord()
{
    RedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    // The interactive shell's working directory: a command or a redirection a name smuggled in
    // leaves a file here.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray token = "0123456789abcdef0123456789abcdef";
    const QByteArray mark = dir.filePath(QStringLiteral("MARK")).toUtf8();

    // What the user typed (as COMP_WORDS), the part bash keeps, and the key in Redis.
    struct Case
    {
        QStringList typed;
        QString kept;
        QByteArray key;
    };
    // The attack of #39: brace expansion makes the spaces, '#' hides what is typed after it.
    QList<Case> cases{{{QStringLiteral("lock"), QStringLiteral(":"), QStringLiteral("dep")},
                       QStringLiteral("lock:"),
                       "lock:deploy;{touch," + mark + "};#"}};
    const QByteArray specials(";{}#><|&*?~!()\n");
    for (qsizetype i = 0; i < specials.size(); ++i) {
        const QString n = QStringLiteral("k%1_").arg(i);
        // Inside what bash replaces, and at its start (after '=', where '~' and '#' act).
        cases << Case{{QStringLiteral("lock"), QStringLiteral(":"), n + QLatin1Char('a')},
                      QStringLiteral("lock:"),
                      "lock:" + n.toUtf8() + 'a' + specials[i] + "z"};
        cases << Case{{QStringLiteral("lock"), QStringLiteral(":"), n + QLatin1Char('b'), QStringLiteral("="),
                       QString()},
                      QStringLiteral("lock:") + n + QStringLiteral("b="),
                      "lock:" + n.toUtf8() + "b=" + specials[i]};
    }
    for (const Case& c : cases)
        QCOMPARE(server.command({"SET", c.key, token, "PX", "600000"}).string, QByteArray("OK"));

    const QStringList global = testPasswordArgs() << QStringLiteral("-m") << server.url(false);
    const QStringList line = QStringList{lockctlPath()} + testPasswordArgs()
                             << QStringLiteral("-m") << urlWords(server);
    QByteArray typing = "cd " + shellQuoted(dir.path()).toUtf8() + "\n";
    for (const Case& c : cases) {
        const QStringList reply = bashComplete(line + QStringList{QStringLiteral("release")} + c.typed);
        QVERIFY2(reply.size() == 1, qPrintable(escapeBytes(c.key) + QStringLiteral(": ") + reply.join('|')));
        // The name as `lockctl list` prints it (a newline as \x0a), less what bash keeps.
        const QString rest = escapeBytes(c.key).mid(c.kept.size());
        // Quoted, but for a '~' or '#' inside a word: only at a word's start does the shell act on them.
        const bool inert = c.key.endsWith("~z") || c.key.endsWith("#z");
        QVERIFY2(inert || reply.first() != rest, qPrintable(reply.first()));
        QStringList words{lockctlPath()};
        words += global;
        QString command;
        for (const QString& w : words)
            command += shellQuoted(w) + QLatin1Char(' ');
        typing += (command + QStringLiteral("release ") + c.kept + reply.first() +
                   QStringLiteral(" --token ") + QString::fromLatin1(token) + QLatin1Char('\n'))
                      .toUtf8();
    }
    typing += "exit\n";
    // Typed into an interactive bash on a terminal, as an operator's Enter runs it: history
    // expansion ('!') and comments ('#') on.
    const ProcessRun run =
        runOnTerminal(QStringLiteral("bash"),
                      {QStringLiteral("--norc"), QStringLiteral("--noprofile"), QStringLiteral("-i")},
                      testPasswordEnvironment(), typing, 60000);
    QVERIFY2(run.code != -1, qPrintable(run.describe()));
    for (const Case& c : cases)
        QVERIFY2(server.command({"EXISTS", c.key}).integer == 0,
                 qPrintable(escapeBytes(c.key) + QStringLiteral(" was not released: ") + run.describe()));
    const QStringList left =
        QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    QVERIFY2(left.isEmpty(), qPrintable(left.join(' ') + QStringLiteral("\n") + run.describe()));
}

void TestCompletion::zshLoadsAndListsCommandsAndOptions()
{
    // compinit loads _lockctl from fpath; _describe and compadd print what they would offer.
    const QString script = QStringLiteral(
        "fpath=(%1 $fpath); autoload -U compinit && compinit -u -D || exit 9; autoload -Uz _lockctl; "
        "_describe() { print -rl -- ${(P)${@[-1]}} }; compadd() { print -rl -- \"${@[(r)--,-1][2,-1]}\" }; "
        "words=(%2 ''); CURRENT=2; _lockctl; print -- ----; words=(%2 list --c); CURRENT=3; _lockctl");
    const ProcessRun run =
        runProcess(QStringLiteral("zsh"),
                   {QStringLiteral("-f"), QStringLiteral("-c"),
                    script.arg(sourcePath(QStringLiteral("resources/completion")), lockctlPath())});
    QVERIFY2(run.code == 0, qPrintable(run.describe()));
    const QList<QByteArray> parts = run.out.split('\n');
    const qsizetype separator = parts.indexOf("----");
    QVERIFY2(separator > 0, qPrintable(run.describe()));
    const QList<QByteArray> commands = parts.mid(0, separator);
    const QList<QByteArray> options = parts.mid(separator + 1);
    for (const char* command : {"list:", "watch:", "force-release:", "hold:"})
        QVERIFY2(std::any_of(commands.cbegin(), commands.cend(),
                             [&](const QByteArray& l) { return l.startsWith(command); }),
                 qPrintable(run.describe()));
    QVERIFY2(options.contains("--color") && options.contains("--config") && !options.contains("--ttl"),
             qPrintable(run.describe()));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestCompletion)

} // namespace tst_completion

#include "tst_completion.moc"
