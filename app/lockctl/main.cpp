// SPDX-License-Identifier: Apache-2.0
#include "lockctl/clicontext.h"
#include "lockctl/command.h"

#include <QCoreApplication>
#include <QSet>

#include <csignal>

using namespace lockctl;

namespace {

// `own`: --help and --version, listed with the global options so that the man page and the help agree.
QString usage(const std::vector<std::unique_ptr<Command>>& commands, QList<QCommandLineOption> own)
{
    QString text = QStringLiteral("Usage: lockctl [global options] COMMAND [options]\n\n"
                                  "Monitor and administer distributed locks kept in Redis.\n\nCommands:\n");
    for (const auto& c : commands)
        text += QStringLiteral("  %1\n      %2\n").arg(c->synopsis(), c->summary());
    text += QStringLiteral("\nGlobal options:\n");
    for (const QCommandLineOption& o : own << CliContext::globalOptions()) {
        QStringList names;
        for (const QString& n : o.names())
            names << (n.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + n;
        QString left = names.join(QStringLiteral(", "));
        if (!o.valueName().isEmpty())
            left += QLatin1Char(' ') + o.valueName();
        text += QStringLiteral("  %1\n      %2\n").arg(left, o.description());
    }
    text += QStringLiteral("\nExit codes: 0 done; 1 not acquired / token did not match / nothing deleted;\n"
                           "2 usage or configuration error; 3 not enough masters reachable; 4 refused "
                           "(read-only, or not a lock);\n5 done, but the audit log could not be written.\n");
    return text;
}

} // namespace

int main(int argc, char** argv)
{
    // A file size limit (ulimit -f) must make an audit append fail with EFBIG, reported with exit
    // code 5, rather than kill lockctl between the write to the masters and its record.
    std::signal(SIGXFSZ, SIG_IGN);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("lockscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION));

    const std::vector<std::unique_ptr<Command>> commands = allCommands();
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    const QCommandLineOption version(QStringLiteral("version"), QStringLiteral("Show the version."));
    parser.addOption(help);
    parser.addOption(version);
    parser.addOptions(CliContext::globalOptions());
    QSet<QString> known;
    for (const auto& c : commands)
        for (const QCommandLineOption& o : c->options())
            if (!known.contains(o.names().first())) {
                known.insert(o.names().first());
                parser.addOption(o);
            }

    CliContext context;
    if (!parser.parse(app.arguments()))
        return context.fail(UsageError, parser.errorText() + QStringLiteral(" (see lockctl --help)"));
    if (parser.isSet(version)) {
        context.out() << "lockctl " << QCoreApplication::applicationVersion() << Qt::endl;
        return Done;
    }
    const QStringList positional = parser.positionalArguments();
    if (parser.isSet(help) || positional.isEmpty()) {
        (positional.isEmpty() && !parser.isSet(help) ? context.err() : context.out())
            << usage(commands, {help, version});
        return parser.isSet(help) ? Done : UsageError;
    }

    Command* command = nullptr;
    for (const auto& c : commands)
        if (c->name() == positional.first())
            command = c.get();
    if (!command)
        return context.fail(
            UsageError, QStringLiteral("unknown command '%1' (see lockctl --help)").arg(positional.first()));

    // An option that belongs to another command is a mistake worth reporting.
    QSet<QString> allowed;
    for (const QCommandLineOption& o : CliContext::globalOptions())
        allowed.unite(QSet<QString>(o.names().cbegin(), o.names().cend()));
    for (const QCommandLineOption& o : command->options())
        allowed.unite(QSet<QString>(o.names().cbegin(), o.names().cend()));
    for (const QString& name : parser.optionNames())
        if (!allowed.contains(name))
            return context.fail(
                UsageError, QStringLiteral("option --%1 does not apply to '%2'").arg(name, command->name()));

    if (const int rc = context.configure(parser, command->needsMasters()); rc != Done)
        return rc;
    const int code = command->run(context, parser, positional.mid(1));
    // An unrecorded write outranks every other result: scripts must notice it.
    return context.auditLost() ? int(AuditLost) : code;
}
