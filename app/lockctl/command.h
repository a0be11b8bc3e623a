// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

#include <memory>
#include <vector>

class QCommandLineParser;

namespace lockctl {

class CliContext;

// One lockctl sub-command. Options of all commands share one parser; options() lists the ones
// this command accepts, so that a misplaced option is reported instead of ignored.
class Command
{
public:
    virtual ~Command() = default;
    virtual QString name() const = 0;
    virtual QString synopsis() const = 0; // "list [--pattern GLOB]..."
    virtual QString summary() const = 0;
    virtual QList<QCommandLineOption> options() const { return {}; }
    // False for a command that reads only local files (history): it runs without -m or --config.
    virtual bool needsMasters() const { return true; }
    virtual int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) = 0;
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
