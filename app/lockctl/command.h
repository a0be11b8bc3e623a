// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

#include <memory>
#include <utility>
#include <vector>

class QCommandLineParser;

namespace lockctl {

class CliContext;

// The word that names a command, and what `lockctl --help` says of it.
struct CommandHelp
{
    QString name;
    QString synopsis; // "list [--pattern GLOB]..."
    QString summary;
};

// One lockctl sub-command. Options of all commands share one parser; options() lists the ones
// this command accepts, so that a misplaced option is reported instead of ignored.
class Command
{
public:
    explicit Command(CommandHelp help) : m_help(std::move(help)) {}
    virtual ~Command() = default;
    const QString& name() const { return m_help.name; }
    const QString& synopsis() const { return m_help.synopsis; }
    const QString& summary() const { return m_help.summary; }
    virtual QList<QCommandLineOption> options() const { return {}; }
    // False for a command that reads only local files (history): it runs without -m or --config.
    virtual bool needsMasters() const { return true; }
    virtual int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) = 0;

private:
    CommandHelp m_help;
};

// Each command file registers itself with a static CommandRegistry; `order` sets where
// `lockctl --help` lists it (list 10, watch 20, acquire 30, extend 40, release 50,
// force-release 60, hold 70, record 80, history 90).
class CommandRegistry
{
public:
    using Factory = std::unique_ptr<Command> (*)();
    struct Entry
    {
        int order;
        Factory factory;
    };
    CommandRegistry(int order, Factory factory);
};

std::vector<std::unique_ptr<Command>> allCommands();

} // namespace lockctl
