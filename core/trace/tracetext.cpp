// SPDX-License-Identifier: Apache-2.0
#include "trace/tracetext.h"

#include "base/bytesdisplay.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>

namespace lockscope::TraceText {

namespace {

bool carriesSource(const QByteArray& command)
{
    const QByteArray c = command.toUpper();
    return c == "EVAL" || c == "EVAL_RO";
}

QJsonArray argsJson(const QByteArrayList& args)
{
    QJsonArray out;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (i == 1 && carriesSource(args.first()))
            out << QStringLiteral("<script %1>")
                       .arg(QString::fromLatin1(
                           QCryptographicHash::hash(args.at(1), QCryptographicHash::Sha1).toHex()));
        else
            out << escapeBytes(args.at(i));
    }
    return out;
}

QString masterOf(const QStringList& names, int master)
{
    return names.value(master, QStringLiteral("master %1").arg(master + 1));
}

} // namespace

QString command(const QByteArrayList& args)
{
    if (args.size() >= 2 && carriesSource(args.first())) {
        QByteArrayList shown = args;
        shown.removeAt(1);
        QStringList words;
        const QString script =
            QStringLiteral("<script %1, %2 bytes>")
                .arg(QString::fromLatin1(
                    QCryptographicHash::hash(args.at(1), QCryptographicHash::Sha1).toHex().left(8)))
                .arg(args.at(1).size());
        const QString rest = escapeCommand(shown.mid(1));
        return escapeBytes(args.first()) + QLatin1Char(' ') + script +
               (rest.isEmpty() ? QString() : QLatin1Char(' ') + rest);
    }
    return escapeCommand(args);
}

QString time(qint64 us)
{
    return QDateTime::fromMSecsSinceEpoch(us / 1000, Qt::UTC).toString(QStringLiteral("HH:mm:ss.zzz"));
}

QString line(const TracedCommand& c, const QString& masterName)
{
    QString out = QStringLiteral("%1  %2  %3  %4  %5")
                      .arg(time(c.timeUs), masterName, c.client.display(), traceMeaningText(c.meaning),
                           command(c.args));
    for (const QByteArrayList& call : c.scriptCalls)
        out += QStringLiteral(" [") + escapeCommand(call) + QLatin1Char(']');
    if (!c.detail.isEmpty())
        out += QStringLiteral("  (") + c.detail + QLatin1Char(')');
    return out;
}

QJsonObject toJson(const TracedCommand& c, const QString& masterName)
{
    QJsonObject client{{QStringLiteral("address"), escapeBytes(c.client.address)}};
    if (!c.client.name.isEmpty())
        client.insert(QStringLiteral("name"), escapeBytes(c.client.name));
    if (!c.client.libraryName.isEmpty())
        client.insert(QStringLiteral("library"), escapeBytes(c.client.libraryName));
    if (!c.client.libraryVersion.isEmpty())
        client.insert(QStringLiteral("libraryVersion"), escapeBytes(c.client.libraryVersion));
    QJsonObject o{{QStringLiteral("event"), QStringLiteral("command")},
                  {QStringLiteral("time"),
                   QDateTime::fromMSecsSinceEpoch(c.timeUs / 1000, Qt::UTC).toString(Qt::ISODateWithMs)},
                  {QStringLiteral("timeUs"), c.timeUs},
                  {QStringLiteral("master"), masterName},
                  {QStringLiteral("client"), client},
                  {QStringLiteral("meaning"), traceMeaningName(c.meaning)},
                  {QStringLiteral("command"), argsJson(c.args)}};
    if (!c.scriptCalls.isEmpty()) {
        QJsonArray calls;
        for (const QByteArrayList& call : c.scriptCalls)
            calls << argsJson(call);
        o.insert(QStringLiteral("scriptCalls"), calls);
    }
    if (!c.token.isEmpty())
        o.insert(QStringLiteral("token"), escapeBytes(c.token));
    if (!c.holderToken.isEmpty())
        o.insert(QStringLiteral("holderToken"), escapeBytes(c.holderToken));
    if (!c.holderClient.isEmpty())
        o.insert(QStringLiteral("holderClient"), escapeBytes(c.holderClient));
    if (c.lapsed != TracedCommand::Lapsed::None) {
        const bool asked = c.lapsed != TracedCommand::Lapsed::Unasked;
        QJsonObject lapsed{{QStringLiteral("token"), escapeBytes(c.lapsedToken)},
                           {QStringLiteral("client"), escapeBytes(c.lapsedClient)}};
        lapsed.insert(QStringLiteral("connection"), !asked ? QStringLiteral("unknown")
                                                    : c.lapsed == TracedCommand::Lapsed::Open
                                                        ? QStringLiteral("open")
                                                        : QStringLiteral("closed"));
        if (c.lapsedIdleS >= 0)
            lapsed.insert(QStringLiteral("idleS"), c.lapsedIdleS);
        o.insert(QStringLiteral("lapsed"), lapsed);
    }
    if (!c.detail.isEmpty())
        o.insert(QStringLiteral("detail"), c.detail);
    return o;
}

QStringList summaryLines(const TraceSummary& s, const QStringList& masterNames)
{
    QStringList out;
    out << QStringLiteral("%1 commands on the lock's keys").arg(s.commands());
    if (s.contenders().isEmpty()) {
        out << QStringLiteral("nobody tried to take, extend or release it");
        return out;
    }
    out << QStringLiteral("contenders (per master and connection):");
    for (const TraceSummary::Contender& c : s.contenders())
        out << QStringLiteral("  %1  %2: %3 attempts, %4 acquired, %5 refused, %6 extends, %7 releases%8")
                   .arg(masterOf(masterNames, c.master), c.client.display())
                   .arg(c.attempts)
                   .arg(c.acquired)
                   .arg(c.refused)
                   .arg(c.extended)
                   .arg(c.released)
                   .arg(c.warnings ? QStringLiteral(", %1 warnings").arg(c.warnings) : QString());
    for (const TracedCommand& h : s.holds())
        out << QStringLiteral("held: %1 %2 token %3 from %4")
                   .arg(time(h.timeUs), masterOf(masterNames, h.master), escapeBytes(h.token),
                        h.client.display());
    for (const TracedCommand& r : s.releases())
        out << QStringLiteral("let go: %1 %2 by %3: %4")
                   .arg(time(r.timeUs), masterOf(masterNames, r.master), r.client.display(),
                        traceMeaningText(r.meaning));
    for (const TracedCommand& w : s.warnings())
        out << QStringLiteral("warning: %1").arg(line(w, masterOf(masterNames, w.master)));
    return out;
}

QJsonObject summaryJson(const TraceSummary& s, const QStringList& masterNames)
{
    QJsonArray contenders;
    for (const TraceSummary::Contender& c : s.contenders()) {
        QJsonObject o{{QStringLiteral("master"), masterOf(masterNames, c.master)},
                      {QStringLiteral("address"), escapeBytes(c.client.address)},
                      {QStringLiteral("attempts"), c.attempts},
                      {QStringLiteral("acquired"), c.acquired},
                      {QStringLiteral("refused"), c.refused},
                      {QStringLiteral("extended"), c.extended},
                      {QStringLiteral("released"), c.released},
                      {QStringLiteral("warnings"), c.warnings}};
        if (!c.client.name.isEmpty())
            o.insert(QStringLiteral("name"), escapeBytes(c.client.name));
        contenders << o;
    }
    const auto list = [&masterNames](const QList<TracedCommand>& commands) {
        QJsonArray out;
        for (const TracedCommand& c : commands)
            out << toJson(c, masterOf(masterNames, c.master));
        return out;
    };
    return QJsonObject{{QStringLiteral("event"), QStringLiteral("summary")},
                       {QStringLiteral("commands"), s.commands()},
                       {QStringLiteral("contenders"), contenders},
                       {QStringLiteral("holds"), list(s.holds())},
                       {QStringLiteral("releases"), list(s.releases())},
                       {QStringLiteral("warnings"), list(s.warnings())}};
}

} // namespace lockscope::TraceText
