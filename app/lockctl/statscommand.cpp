// SPDX-License-Identifier: Apache-2.0
#include "base/bytesdisplay.h"
#include "config/keyglob.h"
#include "insights/familyfiguretext.h"
#include "insights/lockstatsbuilder.h"
#include "lockctl/arguments.h"
#include "lockctl/clicontext.h"
#include "lockctl/command.h"
#include "lockctl/texttable.h"
#include "record/recordingreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace lockscope;

namespace lockctl {

namespace {

// A family's name in its column: at most this wide, so the table fits 100 columns.
constexpr qsizetype familyWidth = 24;

QString shortFamily(const QByteArray& family)
{
    const QString text = escapeBytes(family);
    return text.size() <= familyWidth ? text : text.left(familyWidth - 1) + QChar(0x2026);
}

QString ms(qint64 value)
{
    return FamilyFigureText::duration(value);
}

// A flagged figure ends in "!", explained under the table.
QString flagged(const QString& text, bool flag)
{
    return flag ? text + QLatin1Char('!') : text;
}

// `lockctl stats`: how each family of locks behaves, from the recording alone (issue #44).
class StatsCommand final : public Command
{
public:
    StatsCommand()
        : Command({.name = QStringLiteral("stats"),
                   .synopsis = QStringLiteral("stats [--db FILE] [--since DURATION] [--family PATTERN]"),
                   .summary = QStringLiteral(
                       "How each family of locks behaves (order:1234 and order:88aa... are order:*): "
                       "acquisitions, hold times against the lease, how tenures ended, handover "
                       "gaps and renewals, riskiest first (JSON with --json). Exits 1 when a family "
                       "is flagged, 2 when the recording cannot be read. Reads the recording only.")})
    {}
    QList<QCommandLineOption> options() const override
    {
        return {RecordingArgument::option(),
                {QStringLiteral("since"),
                 QStringLiteral("Only what happened within this span before now (90s, 15m, 2h, 7d)."),
                 QStringLiteral("DURATION")},
                {QStringLiteral("family"),
                 QStringLiteral("Only the families whose name matches this glob ('order:*')."),
                 QStringLiteral("PATTERN")}};
    }
    bool needsMasters() const override { return false; }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (!positional.isEmpty())
            return context.fail(UsageError, QStringLiteral("stats takes no arguments"));
        QString problem;
        const std::optional<qint64> since = DurationArgument::since(parser, &problem);
        if (!since)
            return context.fail(UsageError, problem);
        QByteArray pattern;
        if (parser.isSet(QStringLiteral("family"))) {
            const std::optional<QByteArray> glob = BytesArgument::parse(
                parser.value(QStringLiteral("family")), QStringLiteral("--family"), &problem);
            if (!glob)
                return context.fail(UsageError, problem);
            pattern = *glob;
        }
        RecordingReader reader;
        if (const RedisError error =
                reader.open(RecordingArgument::path(parser), context.config().teamDatabasePassword))
            return context.fail(UsageError, error.message);
        Result<QList<FamilyFigures>> all = LockStatsBuilder::ofRecording(reader, *since);
        if (!all)
            return context.fail(UsageError, all.error().message);
        QList<FamilyFigures> families;
        for (FamilyFigures& f : *all)
            if (pattern.isEmpty() || KeyGlob::matches(pattern, f.family))
                families << std::move(f);
        const bool flagged = std::any_of(families.cbegin(), families.cend(),
                                         [](const FamilyFigures& f) { return f.flagged(); });
        if (context.json())
            printJson(context, families);
        else
            printTable(context, families);
        return flagged ? NotDone : Done;
    }

private:
    static void printJson(CliContext& context, const QList<FamilyFigures>& families)
    {
        QJsonArray list;
        for (const FamilyFigures& f : families)
            list.append(familyFiguresJson(f));
        context.out()
            << QJsonDocument(QJsonObject{{QStringLiteral("families"), list}}).toJson(QJsonDocument::Compact)
            << Qt::endl;
    }

    static void printTable(CliContext& context, const QList<FamilyFigures>& families)
    {
        if (families.isEmpty()) {
            context.out() << "No lock was recorded." << Qt::endl;
            return;
        }
        TextTable table({QStringLiteral("FAMILY"), QStringLiteral("LOCKS"), QStringLiteral("PER MIN"),
                         QStringLiteral("HOLD P50"), QStringLiteral("HOLD P99"), QStringLiteral("LEASE"),
                         QStringLiteral("P99/LEASE"), QStringLiteral("EXPIRED"), QStringLiteral("GAP P50")});
        for (const FamilyFigures& f : families)
            table.add({shortFamily(f.family), QString::number(f.resources), FamilyFigureText::perMinute(f),
                       ms(f.holdMs.p50), ms(f.holdMs.p99), ms(f.leaseMs),
                       flagged(FamilyFigureText::headroom(f), f.lowHeadroom),
                       flagged(FamilyFigureText::expiredShare(f), f.highExpiryShare),
                       ms(f.handoverGapMs.p50)});
        table.print(context.out());
        // Known only for some families (waiters for Redisson's layouts, refusals while traced): a
        // line each rather than a column of dashes.
        for (const FamilyFigures& f : families)
            if (const QString s = FamilyFigureText::contentionSentence(f); !s.isEmpty())
                context.out() << "Contention " << shortFamily(f.family) << ": " << s << '\n';
        if (std::any_of(families.cbegin(), families.cend(),
                        [](const FamilyFigures& f) { return f.flagged(); }))
            context.out() << "! P99/LEASE over " << int(FamilyFigures::lowHeadroomAbove * 100)
                          << "%: one pause or slow call away from expiring under its holder.\n"
                          << "! EXPIRED over " << QString::number(FamilyFigures::highExpiryShareAbove * 100)
                          << "% of tenures: holders crash or overrun instead of releasing." << Qt::endl;
    }
};

const CommandRegistry statsRegistration(97, [] { return std::unique_ptr<Command>(new StatsCommand); });

} // namespace

} // namespace lockctl
