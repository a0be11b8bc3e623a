// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "connection/redistransport.h"

#include <QByteArrayList>
#include <QList>

#include <functional>
#include <optional>

namespace lockscope::test {

// A RedisTransport without a network, for pure unit tests of RedisConnection. It records what the
// connection writes (and decodes it back into commands); the test feeds canned RESP bytes, or lets a
// responder answer each command. Like a socket it reports opening, refusal and scripted answers on a
// later event-loop pass, never from inside the call that caused them.
class ScriptedTransport final : public RedisTransport
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ScriptedTransport)

public:
    enum class OpenMode
    {
        Accept, // opened() on the next pass
        Refuse, // failed(Refused) on the next pass
        Hang,   // neither: a connect that never completes
    };
    // Answers one command with RESP bytes; nullopt leaves it unanswered, and then, as with a stalled
    // server, nothing after it is answered either until the next open(). It sees the commands flushed
    // while it is set, not those before.
    using Responder = std::function<std::optional<QByteArray>(const QByteArrayList& argv)>;

    explicit ScriptedTransport(QObject* parent = nullptr);

    void open() override;
    void abort() override;
    void write(const QByteArray& bytes) override;
    void flush() override;
    QByteArray read(qint64 maxBytes) override;
    bool hasUnreadBytes() const override { return !m_incoming.isEmpty(); }

    void setOpenMode(OpenMode mode) { m_openMode = mode; }
    void setResponder(Responder responder) { m_responder = std::move(responder); }
    // Runs inside every flush(), after the bytes were taken: a TLS socket can hand over replies from
    // inside flush() (readyRead before it returns), and this lets a test do the same with feed().
    void setFlushHook(std::function<void()> hook) { m_flushHook = std::move(hook); }
    // Completes an open() made in Hang mode now: opened() is emitted before this returns.
    void completeOpen();
    // Bytes from the server, delivered now: readyRead() is emitted before this returns.
    void feed(const QByteArray& bytes);
    // Bytes from the server that wait unread, as in a socket whose thread is busy: no readyRead()
    // (feed() or deliver() sends it), but hasUnreadBytes() tells.
    void arrive(const QByteArray& bytes) { m_incoming += bytes; }
    // The most read() has handed out at once, and how many times it handed out anything.
    qint64 largestRead() const { return m_largestRead; }
    int reads() const { return m_reads; }
    void deliver() { emit readyRead(); }
    // The peer goes away (or the network fails) now.
    void failNow(ErrorKind kind, const QString& message);

    bool isOpen() const { return m_open; }
    int openCount() const { return m_openCount; }
    int abortCount() const { return m_abortCount; }
    int flushCount() const { return m_flushCount; }
    // Writes attempted while not open: a connection should never make any.
    int writesWhileClosed() const { return m_writesWhileClosed; }
    // Every byte written since the last open().
    const QByteArray& written() const { return m_written; }
    // written() decoded as RESP commands (arrays of bulk strings); an incomplete tail is left out.
    QList<QByteArrayList> commands() const;
    // Whether written() is nothing but complete, well-formed commands.
    bool writtenIsWellFormed() const;

    // RESP encoders for canned replies.
    static QByteArray status(const QByteArray& text);
    static QByteArray error(const QByteArray& text);
    static QByteArray integer(qint64 value);
    static QByteArray bulk(const QByteArray& bytes);
    static QByteArray nil();
    static QByteArray array(const QByteArrayList& encodedElements);
    // What a healthy Redis master answers to the connection's handshake and to PING; nullopt for
    // anything else. INFO server carries `runId`.
    static std::optional<QByteArray> handshakeReply(const QByteArrayList& argv,
                                                    const QByteArray& runId = defaultRunId());
    static QByteArray defaultRunId();

private:
    // Decodes one command at `offset`; nullopt for an incomplete one, and `malformed` set when the
    // bytes cannot be a command at all.
    static std::optional<QByteArrayList> decodeOne(const QByteArray& bytes, qsizetype& offset,
                                                   bool& malformed);
    void answerNewCommands();
    void later(std::function<void()> action);

    OpenMode m_openMode = OpenMode::Accept;
    Responder m_responder;
    std::function<void()> m_flushHook;
    bool m_open = false;
    bool m_stalled = false;
    int m_openCount = 0;
    int m_abortCount = 0;
    int m_flushCount = 0;
    int m_writesWhileClosed = 0;
    quint64 m_generation = 0; // events scheduled before an open() or abort() are dropped
    QByteArray m_written;
    qsizetype m_answeredUpTo = 0;
    QByteArray m_incoming;
    qint64 m_largestRead = 0;
    int m_reads = 0;
};

} // namespace lockscope::test
