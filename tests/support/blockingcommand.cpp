// SPDX-License-Identifier: Apache-2.0
#include "support/blockingcommand.h"

#include "support/timebound.h"
#include "support/tlsmaterial.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>

#include <hiredis/hiredis.h>

#include <memory>
#include <vector>

namespace lockscope::test {

namespace {

RedisReply convert(const redisReply* r)
{
    RedisReply out;
    switch (r->type) {
    case REDIS_REPLY_STRING:
        out.type = RedisReply::Type::String;
        break;
    case REDIS_REPLY_STATUS:
        out.type = RedisReply::Type::Status;
        break;
    case REDIS_REPLY_ERROR:
        out.type = RedisReply::Type::Error;
        break;
    case REDIS_REPLY_INTEGER:
        out.type = RedisReply::Type::Integer;
        out.integer = r->integer;
        return out;
    case REDIS_REPLY_ARRAY:
        out.type = RedisReply::Type::Array;
        for (size_t i = 0; i < r->elements; ++i)
            out.elements.append(convert(r->element[i]));
        return out;
    default:
        return out;
    }
    out.string = QByteArray(r->str, qsizetype(r->len));
    return out;
}

struct ContextDeleter
{
    void operator()(redisContext* c) const { redisFree(c); }
};

struct ReplyDeleter
{
    void operator()(redisReply* r) const { freeReplyObject(r); }
};

struct ReaderDeleter
{
    void operator()(redisReader* r) const { redisReaderFree(r); }
};

// "Did not hang" for one fixture command: 5 s, scaled like every upper bound.
qint64 fixtureTimeoutMs()
{
    return upperBoundMs(5000);
}

RedisReply fixtureError(const QByteArray& why)
{
    RedisReply failure;
    failure.type = RedisReply::Type::Error;
    failure.string = "fixture: " + why;
    return failure;
}

QByteArray encode(const QByteArrayList& argv)
{
    QByteArray out = '*' + QByteArray::number(argv.size()) + "\r\n";
    for (const QByteArray& a : argv)
        out += '$' + QByteArray::number(a.size()) + "\r\n" + a + "\r\n";
    return out;
}

} // namespace

RedisReply blockingTlsCommand(quint16 port, const QByteArrayList& argv, const QString& password)
{
    const TlsMaterial& material = TlsMaterial::instance();
    if (!material.isValid())
        return fixtureError(material.error().toUtf8());
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setCaCertificates(QSslCertificate::fromPath(material.caFile(), QSsl::Pem));
    config.setLocalCertificate(QSslCertificate::fromPath(material.clientCertFile(), QSsl::Pem).value(0));
    QFile keyFile(material.clientKeyFile());
    if (!keyFile.open(QIODevice::ReadOnly))
        return fixtureError("cannot read the client key");
    config.setPrivateKey(QSslKey(keyFile.readAll(), QSsl::Rsa));
    config.setPeerVerifyMode(QSslSocket::VerifyPeer);
    QSslSocket socket;
    socket.setSslConfiguration(config);
    const QDeadlineTimer deadline(fixtureTimeoutMs());
    socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), port, QStringLiteral("localhost"));
    if (!socket.waitForEncrypted(int(deadline.remainingTime())))
        return fixtureError("no TLS session with port " + QByteArray::number(port) + ": " +
                            socket.errorString().toUtf8());
    QByteArray request;
    if (!password.isEmpty())
        request += encode({"AUTH", password.toUtf8()});
    request += encode(argv);
    socket.write(request);
    std::unique_ptr<redisReader, ReaderDeleter> reader(redisReaderCreate());
    QList<RedisReply> replies;
    while (replies.size() < (password.isEmpty() ? 1 : 2)) {
        void* raw = nullptr;
        if (redisReaderGetReply(reader.get(), &raw) != REDIS_OK)
            return fixtureError("unreadable reply from port " + QByteArray::number(port));
        if (raw) {
            const std::unique_ptr<redisReply, ReplyDeleter> r(static_cast<redisReply*>(raw));
            replies << convert(r.get());
            continue;
        }
        if (socket.bytesAvailable() == 0 &&
            (deadline.hasExpired() || !socket.waitForReadyRead(int(deadline.remainingTime()))))
            return fixtureError("no reply from port " + QByteArray::number(port));
        const QByteArray data = socket.readAll();
        redisReaderFeed(reader.get(), data.constData(), size_t(data.size()));
    }
    if (replies.size() == 2 && replies.front().isError())
        return replies.front();
    return replies.back();
}

RedisReply blockingCommand(quint16 port, const QByteArrayList& argv, const QString& password)
{
    RedisReply failure;
    failure.type = RedisReply::Type::Error;
    const qint64 timeoutMs = fixtureTimeoutMs();
    const timeval timeout{time_t(timeoutMs / 1000), suseconds_t(timeoutMs % 1000 * 1000)};
    std::unique_ptr<redisContext, ContextDeleter> c(redisConnectWithTimeout("127.0.0.1", port, timeout));
    if (!c || c->err) {
        failure.string = "fixture: cannot connect to port " + QByteArray::number(port);
        return failure;
    }
    redisSetTimeout(c.get(), timeout);
    auto run = [&](const QByteArrayList& args) -> RedisReply {
        std::vector<const char*> ptrs;
        std::vector<size_t> lens;
        for (const QByteArray& a : args) {
            ptrs.push_back(a.constData());
            lens.push_back(size_t(a.size()));
        }
        std::unique_ptr<redisReply, ReplyDeleter> r(
            static_cast<redisReply*>(redisCommandArgv(c.get(), int(args.size()), ptrs.data(), lens.data())));
        if (!r) {
            RedisReply e = failure;
            e.string = "fixture: " + QByteArray(c->errstr);
            return e;
        }
        return convert(r.get());
    };
    if (!password.isEmpty()) {
        const RedisReply auth = run({"AUTH", password.toUtf8()});
        if (auth.isError())
            return auth;
    }
    return run(argv);
}

RedisReply pausedReply(quint16 port)
{
    return fixtureError("port " + QByteArray::number(port) + " is paused");
}

QByteArray infoField(const QByteArray& info, const QByteArray& field)
{
    const QByteArray needle = field + ':';
    for (const QByteArray& line : info.split('\n'))
        if (line.startsWith(needle))
            return line.mid(needle.size()).trimmed();
    return {};
}

} // namespace lockscope::test
