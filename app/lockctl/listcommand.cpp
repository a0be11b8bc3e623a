// SPDX-License-Identifier: Apache-2.0
#include "base/threadpriority.h"
#include "config/commandlineconfig.h"
#include "config/scanrate.h"
#include "discovery/entryscanner.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/command.h"
#include "lockctl/listprinter.h"
#include "lockctl/terminalcolor.h"
#include "monitor/locklister.h"
#include "monitor/lockmonitor.h"

#include <algorithm>

using namespace lockscope;

namespace lockctl {

namespace {

// Locks the listing holds back before it prints: up to this many come out exactly as a whole
// listing did (sorted by resource, the table's columns sized to every row, the diagnosis read for
// the first of them); beyond it the rest streams page by page (each page sorted, rows in the
// first part's columns), so memory stays bounded whatever the lock count.
constexpr qsizetype firstPartLocks = 10000;
// The nice value of a paced listing: what background jobs conventionally take.
constexpr int pacedListNice = 10;

// Sorted by resource: how the first part of a listing, and each later page, comes out.
void sortByResource(QList<LockView>& locks)
{
    std::sort(locks.begin(), locks.end(),
              [](const LockView& a, const LockView& b) { return a.resource < b.resource; });
}

// `list` over masters and Sentinel entries: a LockLister streams the rows.
class StreamedList
{
public:
    StreamedList(CliContext& context, MasterSet& masters, const TerminalColor& color)
        : m_context(context), m_masters(masters), m_printer(context, masters, color),
          m_lister(&masters, context.config(), [this](QList<LockView>& views) { onPage(views); })
    {}

    int run(const QCommandLineParser& parser)
    {
        if (const int code = m_printer.openRecording(parser); code >= 0)
            return code;
        // A paced pass yields this machine's CPU as well as the server's time: on a host shared with
        // the server, the work of decoding a million keys and writing their JSON would otherwise be
        // taken from the server and its clients (impact-bench: their p99 8.9x idle at nice 0,
        // 1.6x at 10). This thread does all of list's work; `max` keeps full priority.
        if (m_context.config().monitor.scanRate.mode != ScanRate::Mode::Max)
            ThreadPriority::lowerTo(pacedListNice);
        m_lister.start();
        m_context.waitUntil([this] { return m_lister.isFinished() || m_held.size() >= firstPartLocks; },
                            24 * 3600 * 1000);
        QList<LockView> first = std::move(m_held);
        m_held.clear(); // pages already asked for arrive here meanwhile
        sortByResource(first);
        m_printer.printFirst(first, m_lister.isFinished());
        first.clear();
        m_streaming = true;
        if (!m_held.isEmpty())
            m_printer.printPage(m_held);
        m_held.clear();
        m_lister.setHeld(false);
        m_context.waitUntil([this] { return m_lister.isFinished(); }, 24 * 3600 * 1000);
        m_printer.finish([this](int i) { return m_lister.mode(i); });
        return m_masters.upCount() < m_masters.needed() ? Unavailable : Done;
    }

private:
    void onPage(QList<LockView>& views)
    {
        if (m_streaming) {
            m_printer.printPage(views);
            return;
        }
        m_held << std::move(views);
        if (m_held.size() >= firstPartLocks)
            m_lister.setHeld(true);
    }

    CliContext& m_context;
    MasterSet& m_masters;
    ListPrinter m_printer;
    LockLister m_lister;
    QList<LockView> m_held; // before the first part is printed
    bool m_streaming = false;
};

class ListCommand final : public Command
{
public:
    ListCommand()
        : Command(
              {.name = QStringLiteral("list"),
               .synopsis = QStringLiteral("list [--pattern GLOB]... [--discover GLOB]... [--fence GLOB]... "
                                          "[--color WHEN] [--db FILE]"),
               .summary = QStringLiteral(
                   "Scan every master once and print the locks with their quorum status. --pattern: every "
                   "matching key is a lock; --discover: find the locks among the matching keys (other "
                   "keys are not locks, never stuck). With --json, each lock's diagnosis also uses the "
                   "recorded story of its holder (--db FILE, or the default recording when it exists).")})
    {}
    QList<QCommandLineOption> options() const override
    {
        return CommandLineConfig::patternOptions(QStringLiteral("to scan for"))
               << TerminalColor::option() << RecordingArgument::option();
    }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (!positional.isEmpty())
            return context.fail(UsageError, QStringLiteral("list takes no arguments"));
        const Result<TerminalColor> color = TerminalColor::fromParser(parser);
        if (!color)
            return context.fail(UsageError, color.error().message);
        CommandLineConfig::applyPatternOptions(parser, context.config().monitor);
        MasterSet& masters = context.openMasters();
        if (LockLister::canList(masters))
            return StreamedList(context, masters, *color).run(parser);
        return listMonitored(context, parser, masters, *color);
    }

private:
    // A cluster entry: the whole LockMonitor (its cluster scanner reads each key on its slot's node),
    // printed once the scan is done.
    static int listMonitored(CliContext& context, const QCommandLineParser& parser, MasterSet& masters,
                             const TerminalColor& color)
    {
        ListPrinter printer(context, masters, color);
        if (const int code = printer.openRecording(parser); code >= 0)
            return code;
        LockMonitor monitor(&masters, context.config());
        monitor.setCoalesceMs(0);
        monitor.start();
        // Each master either finishes its pass or fails within its own command timeout. The scan
        // runs over a connection of its own: when that one fails while the master's stays up (a
        // server at maxclients, a timeout the health ping has not met yet), the master is reported
        // down with the scan's reason instead of being waited for or shown as holding nothing.
        context.waitUntil(
            [&] {
                bool settled = true;
                for (int i = 0; i < masters.size(); ++i) {
                    const EntryScanner* scanner = monitor.scanner(i);
                    if (!masters.at(i)->isUp() || scanner->completedPasses() > 0)
                        continue;
                    if (scanner->mode() == NotificationMode::Unknown && !scanner->modeReason().isEmpty())
                        masters.at(i)->holdDown(
                            RedisError(ErrorKind::ConnectionLost, masters.at(i)->name(),
                                       QStringLiteral("cannot scan: %1").arg(scanner->modeReason())));
                    else
                        settled = false;
                }
                return settled;
            },
            24 * 3600 * 1000);
        context.waitUntil([] { return false; }, 10); // let the monitor's last flush run

        QList<LockView> locks;
        locks.reserve(monitor.locks().size());
        for (const LockView& view : monitor.locks())
            locks << view;
        sortByResource(locks);
        printer.printFirst(locks, true);
        printer.finish([&monitor](int i) { return monitor.scanner(i)->mode(); });
        return masters.upCount() < masters.needed() ? Unavailable : Done;
    }
};

const CommandRegistry listRegistration(10, [] { return std::unique_ptr<Command>(new ListCommand); });

} // namespace

} // namespace lockctl
