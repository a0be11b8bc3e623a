// SPDX-License-Identifier: Apache-2.0
#include "support/scriptedrig.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>

namespace lockscope::test {

namespace {

// Printable, unambiguous bytes: printable ASCII stays, everything else (and the backslash) is \xHH.
QString escape(const QByteArray& bytes)
{
    QString out;
    for (const char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f && c != '\\')
            out += QLatin1Char(c);
        else
            out += QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
    }
    return out;
}

} // namespace

ConnectionOptions fakeOptions(const QString& url)
{
    ConnectionOptions options;
    options.url = *RedisUrl::parse(url);
    options.healthIntervalMs = 0; // no PINGs between the scripted replies
    options.autoReconnect = false;
    options.commandTimeoutMs = 5000;
    options.connectTimeoutMs = 5000;
    return options;
}

bool spinUntil(const std::function<bool()>& done, int ms)
{
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    return done();
}

void spinFor(int ms)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

QString describe(const RedisReply& r)
{
    switch (r.type) {
    case RedisReply::Type::Nil:
        return QStringLiteral("nil");
    case RedisReply::Type::Status:
        return QLatin1Char('+') + escape(r.string);
    case RedisReply::Type::Error:
        return QLatin1Char('-') + escape(r.string);
    case RedisReply::Type::Integer:
        return QLatin1Char(':') + QString::number(r.integer);
    case RedisReply::Type::String:
        return QLatin1Char('$') + escape(r.string);
    case RedisReply::Type::Array: {
        QStringList parts;
        for (const RedisReply& e : r.elements)
            parts << describe(e);
        return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
    }
    }
    return QStringLiteral("?");
}

QString describe(const RedisResult& r)
{
    return r.ok() ? describe(r.reply) : QStringLiteral("error:") + errorKindName(r.error.kind);
}

RedisConnection::Callback Results::add()
{
    return [this](const RedisResult& r) { all << r; };
}

QStringList Results::described() const
{
    QStringList out;
    for (const RedisResult& r : all)
        out << describe(r);
    return out;
}

int Results::count(ErrorKind kind) const
{
    return int(std::count_if(all.cbegin(), all.cend(),
                             [kind](const RedisResult& r) { return r.error.kind == kind; }));
}

ScriptedRig::ScriptedRig(ConnectionOptions options)
{
    auto owned = std::make_unique<ScriptedTransport>();
    transport = owned.get();
    connection = std::make_unique<RedisConnection>(std::move(options), std::move(owned));
    QObject::connect(connection.get(), &RedisConnection::stateChanged, connection.get(),
                     [this](RedisConnection::State state) { states << state; });
}

bool ScriptedRig::lastErrorSays(const QStringList& words) const
{
    const QString& message = connection->lastError().message;
    for (const QString& word : words)
        if (!message.contains(word)) {
            qWarning("last error: %s", qPrintable(message));
            return false;
        }
    return true;
}

bool ScriptedRig::isDownWith(ErrorKind kind, const QStringList& words) const
{
    if (connection->state() != RedisConnection::State::Down || connection->lastError().kind != kind) {
        qWarning("state %s, last error: %s", qPrintable(RedisConnection::stateName(connection->state())),
                 qPrintable(connection->lastError().toString()));
        return false;
    }
    return lastErrorSays(words);
}

bool ScriptedRig::bringUp(const QByteArray& runId)
{
    transport->setResponder(
        [runId](const QByteArrayList& argv) { return ScriptedTransport::handshakeReply(argv, runId); });
    connection->open();
    const bool up = spinUntil([this] { return connection->isUp(); });
    transport->setResponder({});
    return up;
}

bool ScriptedRig::waitWritten(qsizetype n) const
{
    return spinUntil([this, n] { return transport->commands().size() >= n; }) &&
           transport->commands().size() == n;
}

bool ScriptedRig::sendWritten(Results& results, const QByteArrayList& argv, int times)
{
    const qsizetype written = transport->commands().size();
    for (int i = 0; i < times; ++i)
        connection->send(argv, results.add());
    return waitWritten(written + times);
}

} // namespace lockscope::test
