// SPDX-License-Identifier: Apache-2.0
#include "lockctl/listprinter.h"

#include "base/monotonicclock.h"
#include "config/scanpattern.h"
#include "diagnosis/diagnosisjson.h"
#include "diagnosis/diagnosisreader.h"
#include "diagnosis/doublegrantdetector.h"
#include "diagnosis/recordedstory.h"
#include "export/lockjson.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/lockprinter.h"
#include "lockctl/terminalcolor.h"
#include "lockctl/texttable.h"
#include "record/recordingreader.h"
#include "topology/clusterentry.h"
#include "topology/clustertopology.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

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

// The recording `list` reads the stories from: --db FILE, or the default one when a recorder
// (`lockctl record`, the window) has written it. None: no recording, or a problem told on `problem`.
std::unique_ptr<RecordingReader> openRecordingAt(const QCommandLineParser& parser, const QString& password,
                                                 QString* problem)
{
    const QString path = RecordingArgument::path(parser);
    if (!parser.isSet(QStringLiteral("db")) && !QFileInfo::exists(path))
        return nullptr;
    auto reader = std::make_unique<RecordingReader>();
    if (const RedisError error = reader->open(path, password)) {
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

// What `list` says of each of the first locks beyond the view: its diagnosis, and the times its
// recording shows two holders at once.
struct LockFindings
{
    QList<Diagnosis> diagnosis;
    QList<SafetyIncident> incidents; // probable or proven, within incidentsSpanMs
};

// How far back `list --json` looks for a lock's incidents in the recording.
constexpr qint64 incidentsSpanMs = 24 * 3600 * 1000;

// Each lock's diagnosis from one look, with the recorded story of its holder when a recording is
// read (a single scan sees no extension: the recording knows how long it has been held, how often
// extended, since when not): the waiters, the owner's connection and the recorded story are read
// for the first maxDiagnosisReads locks, and their incidents of the last day.
QList<LockFindings> diagnose(CliContext& context, MasterSet& masters, const QList<LockView>& locks,
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
    QList<LockFindings> out;
    for (int i = 0; i < locks.size(); ++i) {
        LockStory story;
        QList<SafetyIncident> incidents;
        if (recording && i < read && !locks.at(i).token.isEmpty()) {
            // Only the episodes open now: the holder's, not the resource's whole past.
            // From these masters' recording only: another set's lock of the same name is not this one.
            const Result<ResourceHistory> history =
                recording->history(locks.at(i).resource, words.nowMs, words.masterNames);
            if (history)
                story = RecordedStory::fromHistory(*history);
            else
                context.err() << "lockctl: " << history.error().message << Qt::endl;
            const Result<ResourceHistory> day =
                recording->history(locks.at(i).resource,
                                   QDateTime::currentMSecsSinceEpoch() - incidentsSpanMs, words.masterNames);
            if (day)
                for (const SafetyIncident& incident : DoubleGrantDetector::detect(*day))
                    if (incident.confidence >= SafetyIncident::Confidence::Probable)
                        incidents << incident;
        }
        out << LockFindings{LockDiagnosis::diagnose(locks.at(i), story, facts.at(i), words), incidents};
    }
    return out;
}

// Bytes straight to stdout, after what the text stream holds (both go through the same FILE).
void writeOut(CliContext& context, std::string_view bytes)
{
    context.out().flush();
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    std::fflush(stdout);
}

} // namespace

ListPrinter::ListPrinter(CliContext& context, MasterSet& masters, const TerminalColor& color)
    : m_context(context), m_masters(masters), m_color(color)
{}

ListPrinter::~ListPrinter() = default;

int ListPrinter::openRecording(const QCommandLineParser& parser)
{
    if (!m_context.json())
        return -1;
    QString problem;
    m_recording = openRecordingAt(parser, m_context.config().teamDatabasePassword, &problem);
    if (!problem.isEmpty() && parser.isSet(QStringLiteral("db")))
        return m_context.fail(NotDone, problem);
    if (!problem.isEmpty())
        m_context.err() << "lockctl: not using the recording: " << problem << Qt::endl;
    return -1;
}

void ListPrinter::printFirst(const QList<LockView>& locks, bool finished)
{
    if (m_context.json())
        printFirstJson(locks);
    else
        printFirstText(locks, finished);
}

void ListPrinter::printFirstJson(const QList<LockView>& locks)
{
    const QList<LockFindings> findings = diagnose(m_context, m_masters, locks, m_recording.get());
    const qint64 now = monotonicMs();
    std::string out = "{\"locks\":[";
    std::string diagnosis;
    for (qsizetype i = 0; i < locks.size(); ++i) {
        if (i > 0)
            out += ',';
        diagnosis.clear();
        appendDiagnosisJson(diagnosis, findings.at(i).diagnosis);
        if (!m_recording) {
            LockJson::appendLock(out, locks.at(i), m_masters, now, {{"diagnosis", diagnosis}});
            continue;
        }
        // With a recording: the lock's incidents of the last day ([] when none).
        QJsonArray incidents;
        for (const SafetyIncident& incident : findings.at(i).incidents)
            incidents.append(safetyIncidentJson(incident));
        const QByteArray text = QJsonDocument(incidents).toJson(QJsonDocument::Compact);
        LockJson::appendLock(out, locks.at(i), m_masters, now,
                             {{"diagnosis", diagnosis},
                              {"incidents", std::string_view(text.constData(), size_t(text.size()))}});
    }
    m_written = locks.size();
    writeOut(m_context, out);
}

void ListPrinter::printFirstText(const QList<LockView>& locks, bool finished)
{
    printMasterLines(m_context, m_masters);
    if (locks.isEmpty() && finished) {
        m_context.out() << "No locks matching " << ScanPattern::listText(m_context.config().monitor.patterns)
                        << " on " << m_masters.upCount() << " of " << m_masters.size() << " masters."
                        << Qt::endl;
        return;
    }
    const qint64 now = monotonicMs();
    TextTable table(LockPrinter::header());
    for (const LockView& v : locks)
        table.add(LockPrinter::row(v, now));
    m_widths = table.print(m_context.out(), [&](qsizetype row, qsizetype column, const QString& cell) {
        if (row == 0)
            return m_color.paint(cell, "1");
        return column == LockPrinter::statusColumn ? LockPrinter::paintedStatus(locks.at(row - 1), m_color)
                                                   : cell;
    });
}

void ListPrinter::printPage(const QList<LockView>& views)
{
    const qint64 now = monotonicMs();
    if (m_context.json()) {
        // Past the first part no diagnosis reads the servers or the recording: what the view shows.
        const DiagnosisContext words = diagnosisWords(m_masters);
        std::string out;
        out.reserve(size_t(views.size()) * 512);
        std::string diagnosis;
        for (const LockView& v : views) {
            if (m_written++ > 0)
                out += ',';
            diagnosis.clear();
            appendDiagnosisJson(diagnosis, LockDiagnosis::diagnose(v, LockStory(), DiagnosisFacts(), words));
            LockJson::appendLock(out, v, m_masters, now, {{"diagnosis", diagnosis}});
        }
        writeOut(m_context, out);
        return;
    }
    for (const LockView& v : views)
        TextTable::printRow(
            m_context.out(), LockPrinter::row(v, now), m_widths, [&](qsizetype column, const QString& cell) {
                return column == LockPrinter::statusColumn ? LockPrinter::paintedStatus(v, m_color) : cell;
            });
    m_context.out().flush();
}

void ListPrinter::finish(const std::function<NotificationMode(int)>& mode)
{
    if (!m_context.json()) {
        m_context.out().flush();
        return;
    }
    QJsonArray masters;
    for (int i = 0; i < m_masters.size(); ++i)
        masters << LockJson::master(m_masters, i, mode(i));
    writeOut(m_context,
             "],\"masters\":" + QJsonDocument(masters).toJson(QJsonDocument::Compact).toStdString() + "}\n");
}

} // namespace lockctl
