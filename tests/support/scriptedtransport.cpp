// SPDX-License-Identifier: Apache-2.0
#include "support/scriptedtransport.h"

#include <QDateTime>
#include <QMetaObject>

namespace lockscope::test {

ScriptedTransport::ScriptedTransport(QObject* parent) : RedisTransport(parent) {}

void ScriptedTransport::later(std::function<void()> action)
{
    const quint64 generation = m_generation;
    QMetaObject::invokeMethod(
        this,
        [this, generation, action = std::move(action)] {
            if (generation == m_generation)
                action();
        },
        Qt::QueuedConnection);
}

void ScriptedTransport::open()
{
    ++m_generation;
    ++m_openCount;
    m_open = false;
    m_stalled = false;
    m_written.clear();
    m_answeredUpTo = 0;
    m_incoming.clear();
    switch (m_openMode) {
    case OpenMode::Accept:
        later([this] {
            m_open = true;
            emit opened();
        });
        break;
    case OpenMode::Refuse:
        later([this] { emit failed(ErrorKind::Refused, QStringLiteral("connection refused (scripted)")); });
        break;
    case OpenMode::Hang:
        break;
    }
}

void ScriptedTransport::completeOpen()
{
    ++m_generation;
    m_open = true;
    emit opened();
}

void ScriptedTransport::abort()
{
    ++m_generation;
    ++m_abortCount;
    m_open = false;
    m_incoming.clear();
}

void ScriptedTransport::write(const QByteArray& bytes)
{
    if (!m_open) {
        ++m_writesWhileClosed;
        return;
    }
    m_written += bytes;
}

void ScriptedTransport::flush()
{
    ++m_flushCount;
    if (m_open)
        answerNewCommands();
    if (m_flushHook)
        m_flushHook();
}

QByteArray ScriptedTransport::read(qint64 maxBytes)
{
    QByteArray out = m_incoming.first(qMin<qint64>(maxBytes, m_incoming.size()));
    m_incoming.remove(0, out.size());
    if (!out.isEmpty()) {
        m_largestRead = qMax<qint64>(m_largestRead, out.size());
        ++m_reads;
    }
    return out;
}

void ScriptedTransport::feed(const QByteArray& bytes)
{
    m_incoming += bytes;
    emit readyRead();
}

void ScriptedTransport::failNow(ErrorKind kind, const QString& message)
{
    ++m_generation;
    m_open = false;
    emit failed(kind, message);
}

void ScriptedTransport::answerNewCommands()
{
    QByteArray replies;
    bool malformed = false;
    // Without a responder, commands are passed over: one set later answers only what comes after.
    while (!m_stalled || !m_responder) {
        qsizetype offset = m_answeredUpTo;
        const std::optional<QByteArrayList> argv = decodeOne(m_written, offset, malformed);
        if (!argv)
            break;
        m_answeredUpTo = offset;
        if (!m_responder)
            continue;
        const std::optional<QByteArray> reply = m_responder(*argv);
        if (reply)
            replies += *reply;
        else
            m_stalled = true;
    }
    if (!replies.isEmpty())
        later([this, replies] { feed(replies); });
}

std::optional<QByteArrayList> ScriptedTransport::decodeOne(const QByteArray& bytes, qsizetype& offset,
                                                           bool& malformed)
{
    // Reads "<kind><number>\r\n" at `at`; -1 when incomplete, -2 when malformed.
    auto header = [&](qsizetype& at, char kind) -> qint64 {
        if (at >= bytes.size())
            return -1;
        if (bytes[at] != kind)
            return -2;
        const qsizetype end = bytes.indexOf("\r\n", at);
        if (end < 0)
            return -1;
        bool ok = false;
        const qint64 n = bytes.mid(at + 1, end - at - 1).toLongLong(&ok);
        if (!ok || n < 0)
            return -2;
        at = end + 2;
        return n;
    };
    qsizetype at = offset;
    const qint64 count = header(at, '*');
    if (count < 0) {
        malformed = malformed || count == -2;
        return std::nullopt;
    }
    QByteArrayList argv;
    for (qint64 i = 0; i < count; ++i) {
        const qint64 len = header(at, '$');
        if (len < 0) {
            malformed = malformed || len == -2;
            return std::nullopt;
        }
        if (at + len + 2 > bytes.size())
            return std::nullopt;
        if (bytes.mid(at + len, 2) != "\r\n") {
            malformed = true;
            return std::nullopt;
        }
        argv << bytes.mid(at, len);
        at += len + 2;
    }
    offset = at;
    return argv;
}

QList<QByteArrayList> ScriptedTransport::commands() const
{
    QList<QByteArrayList> out;
    qsizetype offset = 0;
    bool malformed = false;
    while (const std::optional<QByteArrayList> argv = decodeOne(m_written, offset, malformed))
        out << *argv;
    return out;
}

bool ScriptedTransport::writtenIsWellFormed() const
{
    qsizetype offset = 0;
    bool malformed = false;
    while (decodeOne(m_written, offset, malformed))
        ;
    return !malformed && offset == m_written.size();
}

QByteArray ScriptedTransport::status(const QByteArray& text)
{
    return '+' + text + "\r\n";
}

QByteArray ScriptedTransport::error(const QByteArray& text)
{
    return '-' + text + "\r\n";
}

QByteArray ScriptedTransport::integer(qint64 value)
{
    return ':' + QByteArray::number(value) + "\r\n";
}

QByteArray ScriptedTransport::bulk(const QByteArray& bytes)
{
    return '$' + QByteArray::number(bytes.size()) + "\r\n" + bytes + "\r\n";
}

QByteArray ScriptedTransport::nil()
{
    return "$-1\r\n";
}

QByteArray ScriptedTransport::array(const QByteArrayList& encodedElements)
{
    return '*' + QByteArray::number(encodedElements.size()) + "\r\n" + encodedElements.join();
}

QByteArray ScriptedTransport::defaultRunId()
{
    return QByteArray(40, 'a');
}

std::optional<QByteArray> ScriptedTransport::handshakeReply(const QByteArrayList& argv,
                                                            const QByteArray& runId)
{
    if (argv.isEmpty())
        return std::nullopt;
    const QByteArray name = argv.first().toUpper();
    if (name == "AUTH" || name == "SELECT" || name == "CLIENT")
        return status("OK");
    if (name == "PING")
        return status("PONG");
    if (name == "INFO" && argv.size() == 2 && argv[1] == "server")
        return bulk("# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\nrun_id:" + runId +
                    "\r\ntcp_port:6379\r\n");
    if (name == "INFO" && argv.size() == 2 && argv[1] == "replication")
        return bulk("# Replication\r\nrole:master\r\nconnected_slaves:0\r\n");
    if (name == "COMMAND" && argv.size() >= 2 && argv[1].toUpper() == "INFO") {
        // Redis 7's answer: none of the commands asked about (DELIFEQ, DELEX) exists.
        QByteArrayList unknown;
        for (qsizetype i = 2; i < argv.size(); ++i)
            unknown << QByteArray("*-1\r\n");
        return array(unknown);
    }
    if (name == "TIME") {
        const qint64 nowUs = QDateTime::currentMSecsSinceEpoch() * 1000;
        return array({bulk(QByteArray::number(nowUs / 1000000)), bulk(QByteArray::number(nowUs % 1000000))});
    }
    return std::nullopt;
}

} // namespace lockscope::test
