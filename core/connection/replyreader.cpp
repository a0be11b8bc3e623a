// SPDX-License-Identifier: Apache-2.0
#include "connection/replyreader.h"

#include "base/bytesdisplay.h"

#include <hiredis/read.h>

namespace lockscope {

namespace {

QString limitText(const char* field)
{
    return QStringLiteral(" (replyLimits.%1)").arg(QLatin1String(field));
}

QString bulkTooLarge(qint64 limit)
{
    return QStringLiteral("reply too large: a bulk string of more than %1 bytes").arg(limit) +
           limitText("maxBulkBytes");
}

QString replyTooLarge(qint64 limit)
{
    return QStringLiteral("reply too large: more than %1 bytes in one reply").arg(limit) +
           limitText("maxReplyBytes");
}

} // namespace

ReplyReader::ReplyReader(const ReplyLimits& limits) : m_limits(limits)
{
    // One table for every reader, made once (readers are made on several threads).
    static redisReplyObjectFunctions functions = {createString, createArray, createInteger, createNil,
                                                  freeObject};
    m_reader = redisReaderCreateWithFunctions(&functions);
    if (m_reader)
        m_reader->privdata = this;
}

ReplyReader::~ReplyReader()
{
    if (m_reader)
        redisReaderFree(m_reader);
}

// hiredis's reader builds our RedisReply values in place instead of a redisReply tree that would
// have to be converted and freed. The root is m_root; children are appended to their parent as they
// arrive, which is safe because the reader only starts a parent's next child once the previous one is
// complete, so no pointer it still holds can move.
RedisReply* ReplyReader::createObject(const redisReadTask* task, RedisReply::Type type)
{
    auto* self = static_cast<ReplyReader*>(task->privdata);
    RedisReply* out = nullptr;
    if (task->parent) {
        if (!isNextChild(task))
            return nullptr;
        out = &static_cast<RedisReply*>(task->parent->obj)->elements.emplaceBack();
    } else {
        out = &self->m_root;
        *out = RedisReply();
        self->m_elements = 0;
        self->m_filter = self->m_nextFilter;
        self->m_asked = self->m_nextAsked;
    }
    out->type = type;
    return out;
}

void* ReplyReader::createString(const redisReadTask* task, char* str, size_t len)
{
    const RedisReply::Type type = task->type == REDIS_REPLY_ERROR    ? RedisReply::Type::Error
                                  : task->type == REDIS_REPLY_STATUS ? RedisReply::Type::Status
                                                                     : RedisReply::Type::String;
    // A bulk string that arrived whole in one read was never waited for: judged here instead.
    auto* self = static_cast<ReplyReader*>(task->privdata);
    if (type == RedisReply::Type::String && qint64(len) > self->m_limits.maxBulkBytes) {
        self->m_violation = bulkTooLarge(self->m_limits.maxBulkBytes);
        return nullptr;
    }
    if (type == RedisReply::Type::String && self->m_filter && isPageKey(task) &&
        !self->m_filter->keeps(QByteArrayView(str, qsizetype(len)))) {
        if (!isNextChild(task))
            return nullptr;
        ++static_cast<RedisReply*>(task->parent->obj)->integer;
        // Not null (that would fail the read) and never stored: hiredis keeps only a root's object.
        static char leftOut;
        return &leftOut;
    }
    RedisReply* out = createObject(task, type);
    if (out)
        out->string = QByteArray(str, qsizetype(len));
    return out;
}

// The element its parent expects next: those made so far and those a filter left out (a parent's
// `integer`, 0 unless it is a SCAN page's keys) come before it.
bool ReplyReader::isNextChild(const redisReadTask* task)
{
    const auto* parent = static_cast<const RedisReply*>(task->parent->obj);
    return parent->elements.size() + parent->integer == task->idx;
}

// A string element of the root's second element: a SCAN page's key ([cursor, [key, ...]]).
bool ReplyReader::isPageKey(const redisReadTask* task)
{
    const redisReadTask* keys = task->parent;
    return keys && keys->idx == 1 && keys->parent && !keys->parent->parent;
}

void* ReplyReader::createArray(const redisReadTask* task, int elements)
{
    // hiredis 0.14 passes any count but -1 through; a negative one is malformed (nullptr fails the read).
    if (elements < 0)
        return nullptr;
    auto* self = static_cast<ReplyReader*>(task->privdata);
    int depth = 1;
    for (const redisReadTask* p = task->parent; p; p = p->parent)
        ++depth;
    if (depth > self->m_limits.maxDepth) {
        self->m_violation =
            QStringLiteral("reply too deep: arrays nested more than %1 levels").arg(self->m_limits.maxDepth) +
            limitText("maxDepth");
        return nullptr;
    }
    const qint64 before = task->parent ? self->m_elements : 0;
    if (qint64(elements) > self->m_limits.maxElements - before) {
        self->m_violation = QStringLiteral("reply too large: more than %1 elements in one reply")
                                .arg(self->m_limits.maxElements) +
                            limitText("maxElements");
        return nullptr;
    }
    RedisReply* out = createObject(task, RedisReply::Type::Array);
    if (!out)
        return nullptr;
    self->m_elements = before + elements;
    // Capped: the count is the peer's claim, memory is only spent on elements that really arrive.
    out->elements.reserve(qMin(elements, 1024));
    return out;
}

void* ReplyReader::createInteger(const redisReadTask* task, long long value)
{
    RedisReply* out = createObject(task, RedisReply::Type::Integer);
    if (out)
        out->integer = value;
    return out;
}

void* ReplyReader::createNil(const redisReadTask* task)
{
    return createObject(task, RedisReply::Type::Nil);
}

// The reader only frees its root, which is m_root: clearing it is enough.
void ReplyReader::freeObject(void* object)
{
    *static_cast<RedisReply*>(object) = RedisReply();
}

bool ReplyReader::feed(const char* data, qsizetype size)
{
    if (!m_reader || redisReaderFeed(m_reader, data, size_t(size)) != REDIS_OK) {
        failWith(ErrorKind::Protocol, QStringLiteral("could not buffer the reply"));
        return false;
    }
    m_fed += size;
    return true;
}

qint64 ReplyReader::consumed() const
{
    return m_fed - qint64(m_reader->len - m_reader->pos);
}

ReplyReader::Status ReplyReader::failWith(ErrorKind kind, const QString& message)
{
    m_errorKind = kind;
    m_error = message;
    return Status::Failed;
}

ReplyReader::Status ReplyReader::next(RedisReply* out)
{
    if (m_errorKind != ErrorKind::None)
        return Status::Failed;
    void* raw = nullptr;
    if (redisReaderGetReply(m_reader, &raw) != REDIS_OK) {
        if (!m_violation.isEmpty())
            return failWith(ErrorKind::ReplyTooLarge, m_violation);
        // hiredis quotes the offending bytes (a bad type byte): server bytes, escaped.
        const QString what = escapeBytes(QByteArray(m_reader->errstr));
        if (what.startsWith(QLatin1String("No support for nested")))
            return failWith(ErrorKind::ReplyTooLarge,
                            QStringLiteral("reply too deep: arrays nested more than %1 levels")
                                    .arg(ReplyLimits::hiredisMaxDepth) +
                                limitText("maxDepth"));
        return failWith(ErrorKind::Protocol, QStringLiteral("malformed reply: %1").arg(what));
    }
    if (!raw)
        return checkPending() ? Status::NeedMore : Status::Failed;
    const qint64 end = consumed();
    if (end - m_replyFrom > m_limits.maxReplyBytes) // arrived whole, never waited for
        return failWith(ErrorKind::ReplyTooLarge, replyTooLarge(m_limits.maxReplyBytes));
    m_replyFrom = end;
    // Out of the slot at once: whoever gets it may run a nested event loop that parses the next reply.
    *out = std::move(*static_cast<RedisReply*>(raw));
    m_root = RedisReply();
    return Status::Reply;
}

bool ReplyReader::checkPending()
{
    const qint64 pending = qint64(m_reader->len - m_reader->pos);
    if (m_fed - m_replyFrom > m_limits.maxReplyBytes) {
        failWith(ErrorKind::ReplyTooLarge, replyTooLarge(m_limits.maxReplyBytes));
        return false;
    }
    if (m_reader->ridx < 0 || pending == 0)
        return true;
    const redisReadTask& task = m_reader->rstack[m_reader->ridx];
    const char* at = m_reader->buf + m_reader->pos;
    if (task.type == REDIS_REPLY_STRING) {
        // The reader is waiting for a bulk string's bytes, its header "<length>\r\n" at the cursor:
        // judge the announced length now instead of buffering up to it.
        qint64 length = 0;
        for (qint64 i = 0; i < pending && at[i] >= '0' && at[i] <= '9'; ++i) {
            length = length * 10 + (at[i] - '0');
            if (length > m_limits.maxBulkBytes) {
                failWith(ErrorKind::ReplyTooLarge, bulkTooLarge(m_limits.maxBulkBytes));
                return false;
            }
        }
        if (pending > maxLineBytes && !QByteArray::fromRawData(at, qsizetype(pending)).contains('\n')) {
            failWith(ErrorKind::Protocol, QStringLiteral("malformed reply: a bulk header without its end"));
            return false;
        }
        return true;
    }
    // Anything else waits for the end of a line; a line that never ends is malformed, and looking for
    // its end again at every read would take time quadratic in its length.
    if (pending > maxLineBytes) {
        failWith(ErrorKind::Protocol,
                 QStringLiteral("malformed reply: a line of more than %1 bytes without its end")
                     .arg(maxLineBytes));
        return false;
    }
    return true;
}

} // namespace lockscope
