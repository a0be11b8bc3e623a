#include "base/monotonicclock.h"
#include "base/threadpriority.h"
#include "config/commandlineconfig.h"
#include "config/scanrate.h"
#include "diagnosis/diagnosisjson.h"
#include "diagnosis/diagnosisreader.h"
#include "diagnosis/recordedstory.h"
#include "discovery/entryscanner.h"
#include "export/lockjson.h"
#include "export/lockjsonwriter.h"
#include "lockctl/clicontext.h"
#include "lockctl/command.h"
#include "lockctl/lockprinter.h"
#include "lockctl/recordingargument.h"
#include "lockctl/terminalcolor.h"
#include "lockctl/texttable.h"
#include "monitor/locklister.h"
#include "monitor/lockmonitor.h"
#include "record/recordingreader.h"
#include "topology/clusterentry.h"
#include "topology/clustertopology.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <QDateTime>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <memory>

using namespace lockscope;

namespace lockctl {

namespace {

// One line per cluster: how many primaries, the slots they cover, and each one's share or trouble.
void printClusterLine(CliContext& context, const MasterSet& masters, int index)
{
    QStringList primaries;
    for (const MasterNode& n : masters.nodes(index))
        if (n.role == MasterNode::Role::Primary)
            primaries << (n.state == RedisConnection::State::Up
                              ? QStringLiteral("%1 %2").arg(n.address.toString(), n.detail)
                              : QStringLiteral("%1 %2: %3")
                                    .arg(n.address.toString(), RedisConnection::stateName(n.state),
                                         n.detail));
    context.out() << masters.at(index)->name() << ": " << primaries.size() << " primaries, "
                  << masters.cluster(index)->topology()->slotMap().coveredSlots() << "/16384 slots ("
                  << primaries.join(QStringLiteral("; ")) << ")" << Qt::endl;
}

// The recording `list` reads the stories from: --db FILE, or the default one when a recorder
// (`lockctl record`, the window) has written it. None: no recording, or a problem told on `problem`.
std::unique_ptr<RecordingReader> openRecording(const QCommandLineParser& parser, QString* problem)
{
    const QString path = RecordingArgument::path(parser);
    if (!parser.isSet(QStringLiteral("db")) && !QFileInfo::exists(path))
        return nullptr;
    auto reader = std::make_unique<RecordingReader>();
    if (const RedisError error = reader->open(path)) {
        *problem = error.message;
        return nullptr;
    }
    return reader;
}

DiagnosisContext diagnosisWords(const MasterSet& masters)
{
    DiagnosisContext words;
    for (int i = 0; i < masters.size(); ++i)
        words.masterNames << masters.at(i)->name();
    words.nowMs = QDateTime::currentMSecsSinceEpoch();
    words.monotonicNowMs = monotonicMs();
    return words;
}

// Each lock's diagnosis from one look, with the recorded story of its holder when a recording is
// read (a single scan sees no extension: the recording knows how long it has been held, how often
// extended, since when not): the waiters, the owner's connection and the recorded story are read
// for the first maxDiagnosisReads locks.
QList<QList<Diagnosis>> diagnose(CliContext& context, MasterSet& masters, const QList<LockView>& locks,
                                 RecordingReader* recording)
{
    constexpr int maxDiagnosisReads = 200;
    QList<DiagnosisFacts> facts(locks.size());
    DiagnosisReader reader(&masters);
    int left = int(qMin<qsizetype>(locks.size(), maxDiagnosisReads));
    const int read = left;
    for (int i = 0; i < read; ++i)
        reader.read(locks.at(i), [&facts, &left, i](const DiagnosisFacts& f) {
            facts[i] = f;
            --left;
        });
    context.waitUntil([&] { return left == 0; }, 24 * 3600 * 1000);
    const DiagnosisContext words = diagnosisWords(masters);
    QList<QList<Diagnosis>> out;
    for (int i = 0; i < locks.size(); ++i) {
        LockStory story;
        if (recording && i < read && !locks.at(i).token.isEmpty()) {
            // Only the episodes open now: the holder's, not the resource's whole past.
            const Result<ResourceHistory> history = recording->history(locks.at(i).resource, words.nowMs);
            if (history)
                story = RecordedStory::fromHistory(*history);
            else
                context.err() << "lockctl: " << history.error().message << Qt::endl;
        }
        out << LockDiagnosis::diagnose(locks.at(i), story, facts.at(i), words);
    }
    return out;
}

// Locks the listing holds back before it prints: up to this many come out exactly as a whole
// listing did (sorted by resource, the table's columns sized to every row, the diagnosis read for
// the first of them); beyond it the rest streams page by page (each page sorted, rows in the
// first part's columns), so memory stays bounded whatever the lock count.
constexpr qsizetype firstPartLocks = 10000;
// The nice value of a paced listing: what background jobs conventionally take.
constexpr int pacedListNice = 10;

// The recording for `list --json`'s diagnoses; a problem is fatal only when --db named it.
// Returns -1 to go on, or the exit code.
int openRecordingFor(CliContext& context, const QCommandLineParser& parser,
                     std::unique_ptr<RecordingReader>* recording)
{
    QString problem;
    *recording = openRecording(parser, &problem);
    if (!problem.isEmpty() && parser.isSet(QStringLiteral("db")))
        return context.fail(NotDone, problem);
    if (!problem.isEmpty())
        context.err() << "lockctl: not using the recording: " << problem << Qt::endl;
    return -1;
}

// The lines above the table: each master's primary or cluster, or why it is not read (stderr).
void printMasterLines(CliContext& context, const MasterSet& masters)
{
    for (int i = 0; i < masters.size(); ++i) {
        const RedisConnection* c = masters.at(i);
        if (!c->isUp())
            context.err() << "lockctl: " << c->lastError().toString() << Qt::endl;
        else if (const NodeAddress primary = masters.primaryAddress(i); primary.isValid())
            context.out() << c->name() << ": primary " << primary.toString() << Qt::endl;
        else if (masters.isCluster(i))
            printClusterLine(context, masters, i);
    }
}

void printNoLocks(CliContext& context, const MasterSet& masters)
{
    context.out() << "No locks matching " << ScanPattern::listText(context.config().monitor.patterns)
                  << " on " << masters.upCount() << " of " << masters.size() << " masters." << Qt::endl;
}

QJsonArray mastersJson(const MasterSet& masters, const std::function<NotificationMode(int)>& mode)
{
    QJsonArray out;
    for (int i = 0; i < masters.size(); ++i)
        out << LockJson::master(masters, i, mode(i));
    return out;
}

// Bytes straight to stdout, after what the text stream holds (both go through the same FILE).
void writeOut(CliContext& context, std::string_view bytes)
{
    context.out().flush();
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    std::fflush(stdout);
}

// `list` over masters and Sentinel entries: a LockLister streams the rows.
class StreamedList
{
public:
    StreamedList(CliContext& context, MasterSet& masters, const TerminalColor& color)
        : m_context(context), m_masters(masters), m_color(color),
          m_lister(&masters, context.config(), [this](QList<LockView>& views) { onPage(views); })
    {}

    int run(const QCommandLineParser& parser)
    {
        std::unique_ptr<RecordingReader> recording;
        if (m_context.json())
            if (const int code = openRecordingFor(m_context, parser, &recording); code >= 0)
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
        std::sort(first.begin(), first.end(),
                  [](const LockView& a, const LockView& b) { return a.resource < b.resource; });
        if (m_context.json())
            printFirstJson(first, recording.get());
        else
            printFirstText(first);
        first.clear();
        m_streaming = true;
        if (!m_held.isEmpty())
            print(m_held);
        m_held.clear();
        m_lister.setHeld(false);
        m_context.waitUntil([this] { return m_lister.isFinished(); }, 24 * 3600 * 1000);
        if (m_context.json()) {
            const QByteArray masters = QJsonDocument(mastersJson(m_masters, [this](int i) {
                                           return m_lister.mode(i);
                                       })).toJson(QJsonDocument::Compact);
            writeOut(m_context, "],\"masters\":" + masters.toStdString() + "}\n");
        } else {
            m_context.out().flush();
        }
        return m_masters.upCount() < m_masters.needed() ? Unavailable : Done;
    }

private:
    void onPage(QList<LockView>& views)
    {
        if (m_streaming) {
            print(views);
            return;
        }
        m_held << std::move(views);
        if (m_held.size() >= firstPartLocks)
            m_lister.setHeld(true);
    }

    void printFirstJson(const QList<LockView>& locks, RecordingReader* recording)
    {
        const QList<QList<Diagnosis>> diagnoses = diagnose(m_context, m_masters, locks, recording);
        const qint64 now = monotonicMs();
        std::string out = "{\"locks\":[";
        std::string diagnosis;
        for (qsizetype i = 0; i < locks.size(); ++i) {
            if (i > 0)
                out += ',';
            diagnosis.clear();
            appendDiagnosisJson(diagnosis, diagnoses.at(i));
            LockJsonWriter::appendLock(out, locks.at(i), m_masters, now, diagnosis);
        }
        m_written = locks.size();
        writeOut(m_context, out);
    }

    void printFirstText(const QList<LockView>& locks)
    {
        printMasterLines(m_context, m_masters);
        if (locks.isEmpty() && m_lister.isFinished()) {
            printNoLocks(m_context, m_masters);
            return;
        }
        const qint64 now = monotonicMs();
        TextTable table(LockPrinter::header());
        for (const LockView& v : locks)
            table.add(LockPrinter::row(v, m_masters, now));
        m_widths = table.print(m_context.out(), [&](qsizetype row, qsizetype column, const QString& cell) {
            if (row == 0)
                return m_color.paint(cell, "1");
            return column == LockPrinter::statusColumn
                       ? LockPrinter::paintedStatus(locks.at(row - 1), m_color)
                       : cell;
        });
    }

    // A page after the first part: in the first part's columns, or on with the JSON array.
    void print(const QList<LockView>& views)
    {
        const qint64 now = monotonicMs();
        if (m_context.json()) {
            const DiagnosisContext words = diagnosisWords(m_masters);
            std::string out;
            out.reserve(size_t(views.size()) * 512);
            std::string diagnosis;
            for (const LockView& v : views) {
                if (m_written++ > 0)
                    out += ',';
                diagnosis.clear();
                appendDiagnosisJson(diagnosis,
                                    LockDiagnosis::diagnose(v, LockStory(), DiagnosisFacts(), words));
                LockJsonWriter::appendLock(out, v, m_masters, now, diagnosis);
            }
            writeOut(m_context, out);
            return;
        }
        for (const LockView& v : views)
            TextTable::printRow(m_context.out(), LockPrinter::row(v, m_masters, now), m_widths,
                                [&](qsizetype column, const QString& cell) {
                                    return column == LockPrinter::statusColumn
                                               ? LockPrinter::paintedStatus(v, m_color)
                                               : cell;
                                });
        m_context.out().flush();
    }

    CliContext& m_context;
    MasterSet& m_masters;
    const TerminalColor& m_color;
    LockLister m_lister;
    QList<LockView> m_held; // before the first part is printed
    bool m_streaming = false;
    qsizetype m_written = 0;
    QList<qsizetype> m_widths;
};

class ListCommand final : public Command
{
public:
    QString name() const override { return QStringLiteral("list"); }
    QString synopsis() const override
    {
        return QStringLiteral("list [--pattern GLOB]... [--discover GLOB]... [--color WHEN] [--db FILE]");
    }
    QString summary() const override
    {
        return QStringLiteral(
            "Scan every master once and print the locks with their quorum status. --pattern: every "
            "matching key is a lock; --discover: find the locks among the matching keys (other "
            "keys are not locks, never stuck). With --json, each lock's diagnosis also uses the "
            "recorded story of its holder (--db FILE, or the default recording when it exists).");
    }
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
        std::sort(locks.begin(), locks.end(),
                  [](const LockView& a, const LockView& b) { return a.resource < b.resource; });
        const qint64 now = monotonicMs();
        if (context.json()) {
            const QJsonArray masterArray =
                mastersJson(masters, [&monitor](int i) { return monitor.scanner(i)->mode(); });
            std::unique_ptr<RecordingReader> recording;
            if (const int code = openRecordingFor(context, parser, &recording); code >= 0)
                return code;
            const QList<QList<Diagnosis>> diagnoses = diagnose(context, masters, locks, recording.get());
            QJsonArray lockArray;
            for (int i = 0; i < locks.size(); ++i) {
                QJsonObject lock = LockJson::lock(locks.at(i), masters, now);
                lock.insert(QStringLiteral("diagnosis"), diagnosisJson(diagnoses.at(i)));
                lockArray << lock;
            }
            context.out() << QJsonDocument(QJsonObject{{QStringLiteral("masters"), masterArray},
                                                       {QStringLiteral("locks"), lockArray}})
                                 .toJson(QJsonDocument::Compact)
                          << Qt::endl;
        } else {
            printMasterLines(context, masters);
            if (locks.isEmpty()) {
                printNoLocks(context, masters);
            } else {
                TextTable table(LockPrinter::header());
                for (const LockView& v : locks)
                    table.add(LockPrinter::row(v, masters, now));
                table.print(context.out(), [&](qsizetype row, qsizetype column, const QString& cell) {
                    if (row == 0)
                        return color.paint(cell, "1");
                    return column == LockPrinter::statusColumn
                               ? LockPrinter::paintedStatus(locks.at(row - 1), color)
                               : cell;
                });
            }
        }
        return masters.upCount() < masters.needed() ? Unavailable : Done;
    }
};

const CommandRegistry listRegistration(10, [] { return std::unique_ptr<Command>(new ListCommand); });

} // namespace

} // namespace lockctl
