#include "blockingcommand.h"

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

} // namespace

RedisReply blockingCommand(quint16 port, const QByteArrayList& argv, const QString& password)
{
    RedisReply failure;
    failure.type = RedisReply::Type::Error;
    const timeval timeout{5, 0};
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

QByteArray infoField(const QByteArray& info, const QByteArray& field)
{
    const QByteArray needle = field + ':';
    for (const QByteArray& line : info.split('\n'))
        if (line.startsWith(needle))
            return line.mid(needle.size()).trimmed();
    return {};
}

} // namespace lockscope::test
