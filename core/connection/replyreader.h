// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "base/rediserror.h"
#include "connection/redisreply.h"
#include "connection/replykeyfilter.h"
#include "connection/replylimits.h"

#include <QString>

struct redisReader;
struct redisReadTask;

namespace lockscope {

// hiredis's RESP parser building RedisReply values in place, within ReplyLimits: a bulk string whose
// announced length is over the limit fails as soon as its header is in (before its bytes are buffered),
// and so does a reply with too many elements, too deep a nesting, too many bytes, or a status, error or
// integer line that never ends. After a failure the stream is void: the connection drops it.
class ReplyReader final
{
    Q_DISABLE_COPY_MOVE(ReplyReader)

public:
    enum class Status
    {
        Reply,    // `out` holds the next reply
        NeedMore, // nothing complete yet
        Failed,   // errorKind() and error() say why
    };

    explicit ReplyReader(const ReplyLimits& limits);
    ~ReplyReader();

    // Buffers bytes for next(); false when the reader cannot take them.
    bool feed(const char* data, qsizetype size);
    Status next(RedisReply* out);
    // The filter of the next reply to begin: null, or a SCAN page's, whose keys (the strings of its
    // second element) are kept only when `filter` keeps them; that array's `integer` counts the rest.
    void setKeyFilter(const ReplyKeyFilter* filter) { m_nextFilter = filter; }
    // Whether a command waits for the next reply to begin. One that began with none is the peer's
    // own, whatever was sent by the time it completed (wasAsked() is false for it): read as the
    // answer to that later command, it would skip its filter and answer it with another's bytes.
    void setNextAsked(bool asked) { m_nextAsked = asked; }
    bool wasAsked() const { return m_asked; } // of the reply next() returned last

    ErrorKind errorKind() const { return m_errorKind; }
    const QString& error() const { return m_error; }

    // A status, error or integer line (or an array or bulk header) longer than this is malformed.
    static constexpr qsizetype maxLineBytes = 1024 * 1024;

private:
    static void* createString(const redisReadTask* task, char* str, size_t len);
    static void* createArray(const redisReadTask* task, int elements);
    static void* createInteger(const redisReadTask* task, long long value);
    static void* createNil(const redisReadTask* task);
    static void freeObject(void* object);
    static RedisReply* createObject(const redisReadTask* task, RedisReply::Type type);
    static bool isNextChild(const redisReadTask* task); // one with a parent
    static bool isPageKey(const redisReadTask* task);

    Status failWith(ErrorKind kind, const QString& message);
    // The reply under way is within the limits that can be checked before it is complete.
    bool checkPending();
    qint64 consumed() const;

    ReplyLimits m_limits;
    redisReader* m_reader = nullptr;
    RedisReply m_root;      // the reply being built (the reader's privdata points here via this)
    qint64 m_elements = 0;  // elements announced so far by the reply being built
    qint64 m_fed = 0;       // bytes fed since this reader was made ...
    qint64 m_replyFrom = 0; // ... and where the reply under way started among them
    QString m_violation;    // set by a callback that refused an object
    const ReplyKeyFilter* m_nextFilter = nullptr; // for the next reply to begin ...
    const ReplyKeyFilter* m_filter = nullptr;     // ... and the one under way
    bool m_nextAsked = true;
    bool m_asked = true;
    ErrorKind m_errorKind = ErrorKind::None;
    QString m_error;
};

} // namespace lockscope
