// SPDX-License-Identifier: Apache-2.0
#include "support/lockctlrun.h"
#include "support/testpaths.h"
#include "support/testregistry.h"

#include <QFile>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <algorithm>

namespace tst_manpages {

using namespace lockscope::test;

namespace {

using Names = QSet<QString>;

// --long-name, with inner hyphens; not a lone "--" (hold's separator) and not part of a word or URL.
const QRegularExpression longOption(QStringLiteral("(?<![\\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*"));
// -m, -h, -v: one letter alone.
const QRegularExpression shortOption(QStringLiteral("(?<![\\w-])-[a-zA-Z](?![\\w-])"));

Names matches(const QRegularExpression& re, const QString& text)
{
    Names out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        out.insert(it.next().captured(0));
    return out;
}

Names longAndShort(const QString& text)
{
    return matches(longOption, text) | matches(shortOption, text);
}

QString sorted(const Names& names)
{
    QStringList list(names.cbegin(), names.cend());
    list.sort();
    return list.join(QLatin1Char(' '));
}

// Empty when equal, else what each side has that the other lacks.
QString difference(const QString& what, const Names& help, const Names& man,
                   const QString& helpName = QStringLiteral("--help"))
{
    if (help == man)
        return QString();
    return QStringLiteral("%1: in %2 only: [%3]; in the man page only: [%4]")
        .arg(what, helpName, sorted(help - man), sorted(man - help));
}

// The man(7) source as plain text: "\-" is a hyphen, font escapes go; comment lines are dropped.
QStringList manLines(const QString& source)
{
    QStringList out;
    for (QString line : source.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String(".\\\"")))
            continue;
        line.replace(QLatin1String("\\-"), QLatin1String("-"));
        line.remove(QRegularExpression(QStringLiteral("\\\\f[BIRP]")));
        out << line;
    }
    return out;
}

QString unquoted(QString s)
{
    s = s.trimmed();
    if (s.size() >= 2 && s.startsWith(QLatin1Char('"')) && s.endsWith(QLatin1Char('"')))
        s = s.mid(1, s.size() - 2);
    return s;
}

// `.SH NAME` -> its lines (or `.SS name` within one section).
QMap<QString, QStringList> split(const QStringList& lines, const QString& macro)
{
    QMap<QString, QStringList> out;
    QString current;
    for (const QString& line : lines) {
        if (line.startsWith(macro + QLatin1Char(' '))) {
            current = unquoted(line.mid(macro.size() + 1));
            out[current];
        } else if (!current.isNull()) {
            out[current] << line;
        }
    }
    return out;
}

// The tags of `.TP` entries: the line after each `.TP` is what the page documents as an item.
QStringList tags(const QStringList& lines)
{
    QStringList out;
    for (qsizetype i = 0; i + 1 < lines.size(); ++i)
        if (lines.at(i).trimmed() == QLatin1String(".TP"))
            out << lines.at(i + 1);
    return out;
}

Names tagOptions(const QStringList& lines)
{
    Names out;
    for (const QString& tag : tags(lines))
        out |= longAndShort(tag);
    return out;
}

// What `lockctl --help` says: each command with the options of its synopsis line, and the global
// options.
struct LockctlHelp
{
    QMap<QString, Names> commands;
    Names global;
};

LockctlHelp parseLockctlHelp(const QString& text)
{
    LockctlHelp out;
    enum
    {
        None,
        Commands,
        Global
    } part = None;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (line == QLatin1String("Commands:"))
            part = Commands;
        else if (line == QLatin1String("Global options:"))
            part = Global;
        else if (line.isEmpty() || !line.startsWith(QLatin1Char(' ')))
            part = None;
        // Two spaces: a synopsis or an option; six: its description, whose prose may name options.
        else if (line.startsWith(QLatin1String("  ")) && line.at(2) != QLatin1Char(' ')) {
            if (part == Commands)
                out.commands[line.trimmed().section(QLatin1Char(' '), 0, 0)] = longAndShort(line);
            else if (part == Global)
                out.global |= longAndShort(line);
        }
    }
    return out;
}

// QCommandLineParser's help: "  -m, --master <URL>   description"; the names end at the first gap.
Names parseQtHelp(const QString& text)
{
    Names out;
    bool inOptions = false;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (line == QLatin1String("Options:"))
            inOptions = true;
        else if (inOptions && line.startsWith(QLatin1String("  -")))
            out |= longAndShort(line.trimmed().section(QStringLiteral("  "), 0, 0));
        else if (inOptions && !line.startsWith(QLatin1Char(' ')))
            inOptions = false;
    }
    return out;
}

// Everything wrong between lockctl's help and lockctl.1, one line per problem.
QStringList compareLockctl(const LockctlHelp& help, const QString& manSource)
{
    QStringList problems;
    const QStringList lines = manLines(manSource);
    const QMap<QString, QStringList> sections = split(lines, QStringLiteral(".SH"));
    if (help.commands.isEmpty() || help.global.isEmpty())
        problems << QStringLiteral("the help lists no commands or no options");
    const QMap<QString, QStringList> commands =
        split(sections.value(QStringLiteral("COMMANDS")), QStringLiteral(".SS"));
    const Names helpCommands(help.commands.keyBegin(), help.commands.keyEnd());
    const Names manCommands(commands.keyBegin(), commands.keyEnd());
    if (const QString d = difference(QStringLiteral("commands"), helpCommands, manCommands); !d.isEmpty())
        problems << d;
    Names every = help.global;
    for (auto it = help.commands.cbegin(); it != help.commands.cend(); ++it) {
        every |= *it;
        // A synopsis may repeat a global option ([--json]); the man page lists those once, globally.
        const QString d = difference(QStringLiteral("options of '%1'").arg(it.key()), *it - help.global,
                                     tagOptions(commands.value(it.key())));
        if (!d.isEmpty())
            problems << d;
    }
    if (const QString d = difference(QStringLiteral("global options"), help.global,
                                     tagOptions(sections.value(QStringLiteral("OPTIONS"))));
        !d.isEmpty())
        problems << d;
    // Prose and examples may name only options that exist.
    if (const Names unknown = matches(longOption, lines.join(QLatin1Char('\n'))) - every; !unknown.isEmpty())
        problems << QStringLiteral("the man page names options no --help lists: [%1]").arg(sorted(unknown));
    return problems;
}

QStringList compareLockscope(const Names& help, const QString& manSource)
{
    QStringList problems;
    const QStringList lines = manLines(manSource);
    if (help.isEmpty())
        problems << QStringLiteral("the help lists no options");
    if (const QString d =
            difference(QStringLiteral("options"), help,
                       tagOptions(split(lines, QStringLiteral(".SH")).value(QStringLiteral("OPTIONS"))));
        !d.isEmpty())
        problems << d;
    if (const Names unknown = matches(longOption, lines.join(QLatin1Char('\n'))) - help; !unknown.isEmpty())
        problems << QStringLiteral("the man page names options no --help lists: [%1]").arg(sorted(unknown));
    return problems;
}

QString readSource(const QString& relative)
{
    QFile f(sourcePath(relative));
    if (!f.open(QIODevice::ReadOnly))
        return QString();
    return QString::fromUtf8(f.readAll());
}

QString binaryPath(const QString& name)
{
    return buildPath(QStringLiteral("app/") + name);
}

} // namespace

class TestManPages : public QObject
{
    Q_OBJECT

private slots:
    void lockctlHelpAgreesWithTheManPage();
    void eachCommandsHelpAgreesWithTheManPage();
    void everyExitCodeIsDocumented();
    void lockscopeHelpAgreesWithTheManPage();
    void theComparisonIsStrict();
    void pagesHaveTheManSections();

private:
    LockctlHelp lockctlHelp(const QStringList& args);
};

LockctlHelp TestManPages::lockctlHelp(const QStringList& args)
{
    const LockctlRun run = runLockctl(args);
    if (run.code != 0)
        qWarning("%s", qPrintable(run.describe()));
    return run.code == 0 ? parseLockctlHelp(QString::fromUtf8(run.out)) : LockctlHelp();
}

void TestManPages::lockctlHelpAgreesWithTheManPage()
{
    const QString man = readSource(QStringLiteral("docs/man/lockctl.1"));
    QVERIFY(!man.isEmpty());
    const LockctlHelp help = lockctlHelp({QStringLiteral("--help")});
    QVERIFY2(help.commands.size() >= 7,
             qPrintable(sorted(Names(help.commands.keyBegin(), help.commands.keyEnd()))));
    const QStringList problems = compareLockctl(help, man);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TestManPages::eachCommandsHelpAgreesWithTheManPage()
{
    const QString man = readSource(QStringLiteral("docs/man/lockctl.1"));
    const LockctlHelp all = lockctlHelp({QStringLiteral("--help")});
    QVERIFY(!all.commands.isEmpty());
    for (auto it = all.commands.cbegin(); it != all.commands.cend(); ++it) {
        const LockctlHelp help = lockctlHelp({it.key(), QStringLiteral("--help")});
        QVERIFY2(help.commands.contains(it.key()), qPrintable(it.key()));
        // This command's synopsis and the global options, against the man page's.
        LockctlHelp one;
        one.commands.insert(it.key(), help.commands.value(it.key()));
        one.global = help.global;
        QStringList problems = compareLockctl(one, man);
        // The other commands are checked in their own turn.
        problems.removeIf([](const QString& p) {
            return p.startsWith(QLatin1String("commands:")) ||
                   p.startsWith(QLatin1String("the man page names"));
        });
        QVERIFY2(problems.isEmpty(),
                 qPrintable(it.key() + QLatin1String(": ") + problems.join(QLatin1Char('\n'))));
    }
}

void TestManPages::everyExitCodeIsDocumented()
{
    const QString header = readSource(QStringLiteral("app/lockctl/exitcode.h"));
    Names codes;
    const QRegularExpression enumerator(QStringLiteral("^\\s*\\w+\\s*=\\s*(\\d+)\\s*,"),
                                        QRegularExpression::MultilineOption);
    for (auto it = enumerator.globalMatch(header); it.hasNext();)
        codes.insert(it.next().captured(1));
    QVERIFY2(codes.size() >= 6, qPrintable(sorted(codes)));

    const QStringList lines = manLines(readSource(QStringLiteral("docs/man/lockctl.1")));
    Names documented;
    const QRegularExpression codeTag(QStringLiteral("^\\.B\\s+(\\d+)\\s*$"));
    for (const QString& tag : tags(split(lines, QStringLiteral(".SH")).value(QStringLiteral("EXIT STATUS"))))
        if (const QRegularExpressionMatch m = codeTag.match(tag); m.hasMatch())
            documented.insert(m.captured(1));
    const QString d =
        difference(QStringLiteral("exit codes"), codes, documented, QStringLiteral("exitcode.h"));
    QVERIFY2(d.isEmpty(), qPrintable(d));
}

void TestManPages::lockscopeHelpAgreesWithTheManPage()
{
    const QString path = binaryPath(QStringLiteral("lockscope"));
    if (!QFile::exists(path))
        QSKIP("lockscope is not built (LOCKSCOPE_GUI=OFF)");
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels); // lockscope prints its usage on stderr
    p.start(path, {QStringLiteral("--help")});
    QVERIFY(p.waitForFinished(int(lockscope::test::upperBoundMs(30000))));
    const QString out = QString::fromUtf8(p.readAll());
    QCOMPARE(p.exitCode(), 0);
    const Names help = parseQtHelp(out);
    QVERIFY2(help.contains(QStringLiteral("--demo")), qPrintable(out));
    const QStringList problems = compareLockscope(help, readSource(QStringLiteral("docs/man/lockscope.1")));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

// The comparison must catch an option the page lost and one it invented.
void TestManPages::theComparisonIsStrict()
{
    const QString man = readSource(QStringLiteral("docs/man/lockctl.1"));
    const LockctlHelp help = lockctlHelp({QStringLiteral("--help")});
    QVERIFY(compareLockctl(help, man).isEmpty());

    QString lost = man;
    const QString graceMs = QStringLiteral(".TP\n.BI \\-\\-grace\\-ms \" MS\"\n");
    QVERIFY(lost.contains(graceMs));
    lost.replace(graceMs, QString());
    QVERIFY(!compareLockctl(help, lost).isEmpty());

    QString invented = man;
    const QString anchor = QStringLiteral(".SH EXIT STATUS\n");
    QVERIFY(invented.contains(anchor));
    invented.replace(anchor, QStringLiteral(".TP\n.B \\-\\-no\\-such\\-option\nNothing.\n") + anchor);
    QVERIFY(!compareLockctl(help, invented).isEmpty());

    QString inProse = man;
    inProse.replace(anchor, QStringLiteral("Use \\fB\\-\\-frobnicate\\fR.\n") + anchor);
    QVERIFY(!compareLockctl(help, inProse).isEmpty());

    LockctlHelp more = help;
    more.global.insert(QStringLiteral("--no-such-global"));
    QVERIFY(!compareLockctl(more, man).isEmpty());
}

void TestManPages::pagesHaveTheManSections()
{
    for (const QString& page : {QStringLiteral("lockctl"), QStringLiteral("lockscope")}) {
        const QString source = readSource(QStringLiteral("docs/man/%1.1").arg(page));
        QVERIFY2(source.contains(QStringLiteral(".TH %1 1 ").arg(page.toUpper())), qPrintable(page));
        const QMap<QString, QStringList> sections = split(manLines(source), QStringLiteral(".SH"));
        for (const char* name : {"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "ENVIRONMENT",
                                 "FILES", "EXAMPLES", "SEE ALSO"})
            QVERIFY2(sections.contains(QLatin1String(name)),
                     qPrintable(page + QLatin1String(": ") + QLatin1String(name)));
    }
    const QMap<QString, QStringList> lockctl =
        split(manLines(readSource(QStringLiteral("docs/man/lockctl.1"))), QStringLiteral(".SH"));
    QVERIFY(lockctl.contains(QStringLiteral("COMMANDS")));
    QVERIFY(lockctl.contains(QStringLiteral("JSON OUTPUT")));
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestManPages)

} // namespace tst_manpages

#include "tst_manpages.moc"
