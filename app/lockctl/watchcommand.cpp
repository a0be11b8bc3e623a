// SPDX-License-Identifier: Apache-2.0
#include "base/bytesdisplay.h"
#include "base/monotonicclock.h"
#include "config/commandlineconfig.h"
#include "export/lockjson.h"
#include "lockctl/clicontext.h"
#include "lockctl/command.h"
#include "lockctl/lockprinter.h"
#include "lockctl/terminalcolor.h"
#include "lockctl/terminationsignals.h"
#include "monitor/lockmonitor.h"
#include "monitor/mastereventtext.h"
#include "topology/clusterentry.h"
#include "topology/clustertopology.h"

#include <QDateTime>
#include <QJsonDocument>

#include <csignal>

using namespace lockscope;

namespace lockctl {

namespace {

class WatchCommand final : public Command
{
public:
    WatchCommand()
        : Command({.name = QStringLiteral("watch"),
                   .synopsis = QStringLiteral(
                       "watch [--pattern GLOB]... [--discover GLOB]... [--fence GLOB]... [--color WHEN]"),
                   .summary = QStringLiteral(
                       "Stream lock and master changes until interrupted (JSON Lines with --json); "
                       "--pattern and --discover as for list.")})
    {}
    QList<QCommandLineOption> options() const override
    {
        return CommandLineConfig::patternOptions(QStringLiteral("to watch")) << TerminalColor::option();
    }

    int run(CliContext& context, const QCommandLineParser& parser, const QStringList& positional) override
    {
        if (!positional.isEmpty())
            return context.fail(UsageError, QStringLiteral("watch takes no arguments"));
        const Result<TerminalColor> color = TerminalColor::fromParser(parser);
        if (!color)
            return context.fail(UsageError, color.error().message);
        m_color = *color;
        CommandLineConfig::applyPatternOptions(parser, context.config().monitor);
        // A long-running watch rides out outages: masters reconnect and are re-read.
        for (ConnectionOptions& m : context.config().masters) {
            m.autoReconnect = true;
            m.healthIntervalMs = 1000;
        }
        // Through the event loop (a self-pipe), which sleeps until something happens: a flag set
        // by a plain signal handler would wake nobody. SIGHUP keeps its default action.
        TerminationSignals terminations({SIGINT, SIGTERM});
        bool interrupted = false;
        QObject::connect(&terminations, &TerminationSignals::received,
                         [&interrupted] { interrupted = true; });
        MasterSet& masters = context.openMasters();
        LockMonitor monitor(&masters, context.config());
        m_context = &context;
        m_masters = &masters;

        QObject::connect(&masters, &MasterSet::masterStateChanged,
                         [&](int i, RedisConnection::State state, const RedisError& reason) {
                             emitMaster(i, RedisConnection::stateName(state),
                                        state == RedisConnection::State::Up ? primaryDetail(i)
                                                                            : reason.message);
                         });
        QObject::connect(
            &monitor, &LockMonitor::failoverDetected, [&](int i, const PrimaryChange& change, int atRisk) {
                emitMaster(i, QStringLiteral("failover"), MasterEventText::failoverDetected(change, atRisk));
            });
        QObject::connect(&monitor, &LockMonitor::failoverReported,
                         [&](const FailoverReport& report) { emitFailover(report); });
        QObject::connect(&masters, &MasterSet::masterRestarted, [&](int i) {
            emitMaster(i, QStringLiteral("restarted"), MasterEventText::restarted());
        });
        QObject::connect(
            &masters, &MasterSet::clusterPrimaryRestarted, [&](int i, const NodeAddress& primary) {
                emitMaster(i, QStringLiteral("restarted"), MasterEventText::primaryRestarted(primary));
            });
        QObject::connect(&masters, &MasterSet::nodesChanged, [&](int i) { onClusterNodes(i); });
        QObject::connect(&monitor, &LockMonitor::masterModeChanged,
                         [&](int i, NotificationMode mode, const QString& reason) {
                             emitMaster(i, QStringLiteral("mode ") + notificationModeName(mode), reason);
                         });
        QObject::connect(&monitor, &LockMonitor::locksChanged, [&](const LockBatch& batch) {
            for (const LockView& v : batch.added)
                emitLock(QStringLiteral("added"), v);
            for (const LockView& v : batch.changed)
                emitLock(QStringLiteral("changed"), v);
            for (const QByteArray& r : batch.removed)
                emitRemoved(r);
        });
        for (int i = 0; i < masters.size(); ++i) {
            const QString detail =
                masters.at(i)->isUp() ? primaryDetail(i) : masters.at(i)->lastError().message;
            if (masters.isCluster(i) && masters.at(i)->isUp())
                m_clusterDetails[i] = detail; // said here; repeated only when it changes
            emitMaster(i, RedisConnection::stateName(masters.at(i)->state()), detail);
        }
        monitor.start();
        context.waitUntil([&interrupted] { return interrupted; }, std::numeric_limits<int>::max());
        return Done;
    }

private:
    QString now() const { return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs); }

    // A master's state word: up green, down red, a change worth a look (failover, restart,
    // degraded, polling mode) amber, the rest (connecting, reconnecting, live mode) plain (null).
    static const char* stateSgr(const QString& state)
    {
        if (state == QLatin1String("up"))
            return "32";
        if (state == QLatin1String("down") || state == QLatin1String("disconnected"))
            return "31";
        if (state == QLatin1String("connecting") || state == QLatin1String("reconnecting") ||
            state.startsWith(QLatin1String("mode live")))
            return nullptr;
        return "33";
    }

    void write(const QJsonObject& o)
    {
        m_context->out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << Qt::endl;
    }

    void emitMaster(int index, const QString& state, const QString& detail)
    {
        const QString url = m_masters->at(index)->name();
        if (m_context->json()) {
            QJsonObject o{{QStringLiteral("time"), now()},
                          {QStringLiteral("event"), QStringLiteral("master")},
                          {QStringLiteral("master"), url},
                          {QStringLiteral("state"), state}};
            if (!detail.isEmpty())
                o.insert(QStringLiteral("detail"), detail);
            write(o);
        } else {
            m_context->out() << now() << "  master " << url << "  " << m_color.paint(state, stateSgr(state))
                             << (detail.isEmpty() ? QString()
                                                  : QStringLiteral("  (") + detail + QLatin1Char(')'))
                             << Qt::endl;
        }
    }

    // For a Sentinel entry, the node it is connected to.
    QString primaryDetail(int index) const
    {
        if (m_masters->isCluster(index))
            return clusterDetail(index);
        const NodeAddress primary = m_masters->primaryAddress(index);
        return primary.isValid() ? QStringLiteral("primary ") + primary.toString() : QString();
    }

    // A cluster stays up while some primary is: which ones are not, and the slots served.
    QString clusterDetail(int index, bool* degraded = nullptr) const
    {
        QStringList down;
        int primaries = 0;
        for (const MasterNode& n : m_masters->nodes(index)) {
            if (n.role != MasterNode::Role::Primary)
                continue;
            ++primaries;
            // One still connecting at start-up is not news.
            if (n.state != RedisConnection::State::Up && n.state != RedisConnection::State::Connecting)
                down << QStringLiteral("%1 %2 (%3)")
                            .arg(n.address.toString(), RedisConnection::stateName(n.state), n.detail);
        }
        const int covered = m_masters->cluster(index)->topology()->slotMap().coveredSlots();
        if (degraded)
            *degraded = !down.isEmpty() || covered < 16384;
        QString out = QStringLiteral("%1 primaries, %2/16384 slots").arg(primaries).arg(covered);
        if (!down.isEmpty())
            out += QStringLiteral("; down: ") + down.join(QStringLiteral("; "));
        return out;
    }

    // A primary of a cluster went down or came back: the entry's state may not change, so say it.
    void onClusterNodes(int index)
    {
        if (!m_masters->isCluster(index) || !m_masters->at(index)->isUp())
            return;
        bool degraded = false;
        const QString detail = clusterDetail(index, &degraded);
        QString& last = m_clusterDetails[index];
        if (detail == last)
            return;
        last = detail;
        emitMaster(index, degraded ? QStringLiteral("degraded") : QStringLiteral("up"), detail);
    }

    // The double-grant hazard of a failover, once the new primary has been read.
    void emitFailover(const FailoverReport& report)
    {
        if (m_context->json()) {
            QJsonObject o = LockJson::failover(report, *m_masters);
            o.insert(QStringLiteral("time"), now());
            write(o);
            return;
        }
        m_context->out() << now() << "  failover  " << m_masters->at(report.master)->name() << "  "
                         << report.change.oldPrimary.toString() << " → "
                         << report.change.newPrimary.toString() << "  " << report.atRisk.size()
                         << " at risk, lost: " << MasterEventText::lostLocks(report)
                         << ", changed token: " << MasterEventText::changedTokens(report) << Qt::endl;
    }

    void emitLock(const QString& event, const LockView& view)
    {
        if (m_context->json()) {
            std::string eventJson;
            JsonText::appendString(eventJson, event);
            std::string timeJson;
            JsonText::appendString(timeJson, now());
            std::string line;
            LockJson::appendLock(line, view, *m_masters, monotonicMs(),
                                 {{"event", eventJson}, {"time", timeJson}});
            m_context->out() << QByteArray::fromStdString(line) << Qt::endl;
        } else {
            QStringList row = LockPrinter::row(view, monotonicMs());
            row[LockPrinter::statusColumn] = LockPrinter::paintedStatus(view, m_color);
            m_context->out() << now() << "  " << event.leftJustified(8) << "  "
                             << row.join(QStringLiteral("  ")) << Qt::endl;
        }
    }

    void emitRemoved(const QByteArray& resource)
    {
        if (m_context->json())
            write({{QStringLiteral("time"), now()},
                   {QStringLiteral("event"), QStringLiteral("removed")},
                   {QStringLiteral("resource"), escapeBytes(resource)}});
        else
            m_context->out() << now() << "  removed   " << escapeBytes(resource) << Qt::endl;
    }

    CliContext* m_context = nullptr;
    MasterSet* m_masters = nullptr;
    TerminalColor m_color = TerminalColor::never();
    QHash<int, QString> m_clusterDetails; // per cluster entry: the last state of its primaries said
};

const CommandRegistry watchRegistration(20, [] { return std::unique_ptr<Command>(new WatchCommand); });

} // namespace

} // namespace lockctl
