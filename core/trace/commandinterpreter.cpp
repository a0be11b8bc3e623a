// SPDX-License-Identifier: Apache-2.0
#include "trace/commandinterpreter.h"

#include "base/bytesdisplay.h"
#include "trace/keywrite.h"
#include "trace/tracetext.h"

#include <QSet>

namespace lockscope {

namespace {

// A script's ARGV: what follows its KEYS.
QByteArrayList scriptArgv(const MonitorLine& script)
{
    if (script.args.size() < 3)
        return {};
    bool ok = false;
    const qint64 keys = script.args.at(2).toLongLong(&ok);
    if (!ok || keys < 0 || 3 + keys > script.args.size())
        return {};
    return script.args.mid(3 + keys);
}

// Commands a waiter sends: Redisson's subscribers, python-redis-lock's BLPOP on its signal list.
bool isWaiterCommand(const QByteArray& command)
{
    static const QSet<QByteArray> waiting{"SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE", "BLPOP",    "BRPOP",
                                          "BLMOVE",    "BRPOPLPUSH", "BLMPOP",     "BZPOPMIN", "BZPOPMAX"};
    return waiting.contains(command);
}

bool isReadCommand(const QByteArray& command)
{
    static const QSet<QByteArray> looking{
        "GET",     "EXISTS", "PTTL",    "TTL",  "PEXPIRETIME", "EXPIRETIME", "TYPE",   "HGET",
        "HGETALL", "HKEYS",  "HEXISTS", "HLEN", "HVALS",       "STRLEN",     "ZRANGE", "ZCARD",
        "ZSCORE",  "LLEN",   "LRANGE",  "MGET", "DUMP",        "OBJECT",     "TOUCH",  "WATCH"};
    return looking.contains(command);
}

} // namespace

CommandInterpreter::CommandInterpreter(QByteArray lockKey, const QByteArrayList& keys)
    : m_lockKey(std::move(lockKey)), m_filter(keys)
{}

QString CommandInterpreter::heldBy(const LockKeyModel::Holder& holder) const
{
    const QString from = holder.client.isEmpty() ? QStringLiteral("since before the trace began")
                                                 : QStringLiteral("set from ") + escapeBytes(holder.client);
    return QStringLiteral("held by token %1 (%2)").arg(escapeBytes(holder.token), from);
}

QString CommandInterpreter::formerText(const LockKeyModel::Holder& former) const
{
    QString out = QStringLiteral("token %1 held it until %2")
                      .arg(escapeBytes(former.token), TraceText::time(former.untilUs));
    if (!former.client.isEmpty())
        out += QStringLiteral(" (set from ") + escapeBytes(former.client) + QLatin1Char(')');
    return out;
}

CommandInterpreter::Applied CommandInterpreter::apply(const QByteArrayList& args, const QByteArray& client,
                                                      qint64 us)
{
    Applied a;
    const KeyWrite w = KeyWrite::of(args, us);
    const LockKeyModel::Holder* h = m_model.holderAt(us);
    const bool held = h != nullptr;
    const bool same = held && h->token == w.value;
    switch (w.kind) {
    case KeyWrite::Kind::None:
        break;
    case KeyWrite::Kind::SetIfAbsent:
        if (!held) {
            m_model.set(w.value, client, us, w.expiresAtUs);
            a.took = true;
        }
        break;
    case KeyWrite::Kind::SetIfPresent:
    case KeyWrite::Kind::Set:
        if (w.kind == KeyWrite::Kind::SetIfPresent && !held)
            break;
        a.took = !held;
        a.replaced = held && !same;
        a.renewed = same;
        m_model.set(w.value, client, us, w.keepTtl ? m_model.expiresAtUs() : w.expiresAtUs);
        break;
    case KeyWrite::Kind::Delete:
        if (held) {
            m_model.remove(us);
            a.removed = true;
        }
        break;
    case KeyWrite::Kind::Expire:
    case KeyWrite::Kind::Persist:
        if (held) {
            m_model.setExpiry(w.kind == KeyWrite::Kind::Expire ? w.expiresAtUs : -1);
            a.renewed = true;
        }
        break;
    case KeyWrite::Kind::HashEnter:
        if (!held) {
            m_model.set(w.value, client, us, -1);
            a.took = true;
        } else if (same) {
            a.renewed = true;
        }
        break;
    case KeyWrite::Kind::HashLeave:
        a.left = same;
        break;
    }
    return a;
}

TracedCommand CommandInterpreter::interpret(const MonitorLine& command, const QList<MonitorLine>& scriptCalls)
{
    TracedCommand out;
    out.timeUs = command.timeUs;
    out.client.address = command.client;
    out.args = command.args;
    const QByteArray name = command.command();
    bool onLock = m_filter.lockKeysOf(command).contains(m_lockKey);
    for (const MonitorLine& call : scriptCalls) {
        out.scriptCalls << call.args;
        onLock = onLock || m_filter.lockKeysOf(call).contains(m_lockKey);
    }
    const LockKeyModel::Holder* h = m_model.holderAt(command.timeUs);
    const std::optional<LockKeyModel::Holder> before = h ? std::optional(*h) : std::nullopt;
    if (before) {
        out.holderToken = before->token;
        out.holderClient = before->client;
    }
    if (!onLock) {
        // The format's other keys: a waiter, the unlock notice, a look.
        out.meaning = isWaiterCommand(name) ? TraceMeaning::Waiting
                      : isReadCommand(name) ? TraceMeaning::Read
                                            : TraceMeaning::Other;
        if (name == "PUBLISH" || name == "SPUBLISH")
            out.detail = QStringLiteral("the unlock notice to waiters");
        return out;
    }
    if (MonitorLine::isScript(name))
        interpretScript(out, command, scriptCalls, before);
    else
        interpretPlain(out, command, before);
    // A take after a lease ran out unreleased: whether that holder was still there is asked of the
    // master (MasterTrace). A connection shared by both, or one the trace cannot tell apart from
    // others (a Unix socket's), says nothing of the old holder.
    const LockKeyModel::Holder* lapsed = m_model.lastFormer();
    if (out.meaning == TraceMeaning::Acquired && !before && lapsed && lapsed->expired &&
        !lapsed->client.isEmpty() && lapsed->client != command.client && lapsed->client != "lua" &&
        !lapsed->client.startsWith("unix:")) {
        out.lapsed = TracedCommand::Lapsed::Unasked;
        out.lapsedToken = lapsed->token;
        out.lapsedClient = lapsed->client;
    }
    return out;
}

void CommandInterpreter::interpretScript(TracedCommand& out, const MonitorLine& script,
                                         const QList<MonitorLine>& calls,
                                         const std::optional<LockKeyModel::Holder>& before)
{
    m_scriptKinds.noteSource(script);
    if (calls.isEmpty()) {
        // Every lock script reads the key first: one that made no call did not run (an EVALSHA the
        // master answered NOSCRIPT, which the library then sends again as EVAL, or an error).
        out.meaning = TraceMeaning::Other;
        out.detail = QStringLiteral("the script made no call on the lock's keys: it did not run (NOSCRIPT?)");
        return;
    }
    Applied a;
    qint64 end = script.timeUs;
    for (const MonitorLine& call : calls) {
        end = qMax(end, call.timeUs);
        if (!m_filter.lockKeysOf(call).contains(m_lockKey))
            continue;
        const Applied one = apply(call.args, script.client, call.timeUs);
        a.took |= one.took;
        a.replaced |= one.replaced;
        a.renewed |= one.renewed;
        a.left |= one.left;
        a.removed |= one.removed;
    }
    if (a.removed)
        m_scriptKinds.learn(script, ScriptKinds::Kind::Release);
    else if (a.took && !before)
        m_scriptKinds.learn(script, ScriptKinds::Kind::Acquire);
    else if (a.renewed)
        m_scriptKinds.learn(script, ScriptKinds::Kind::Extend);
    const ScriptKinds::Kind kind = m_scriptKinds.of(script);
    const QByteArrayList argv = scriptArgv(script);
    const LockKeyModel::Holder* after = m_model.holderAt(end);
    const LockKeyModel::Holder* former = nullptr;
    for (const QByteArray& arg : argv)
        if ((former = m_model.formerWithToken(arg)))
            break;

    if (!before && after) {
        out.meaning = TraceMeaning::Acquired;
        out.token = after->token;
        return;
    }
    if (before && after && after->token != before->token) {
        out.meaning = TraceMeaning::Replaced;
        out.token = after->token;
        out.detail = QStringLiteral("the script wrote over it: ") + heldBy(*before);
        return;
    }
    if (before && !after) {
        out.token = before->token;
        if (argv.contains(before->token) || (!before->client.isEmpty() && script.client == before->client)) {
            out.meaning = TraceMeaning::Released;
        } else {
            out.meaning = TraceMeaning::DeletedByNonHolder;
            out.detail = QStringLiteral("the script deleted it without its token: ") + heldBy(*before);
        }
        return;
    }
    if (before && after) {
        out.token = before->token;
        if (a.renewed) {
            out.meaning = TraceMeaning::Extended;
        } else if (a.left) {
            out.meaning = TraceMeaning::Released;
            out.detail = QStringLiteral("one re-entry given back; still held");
        } else if (argv.contains(before->token)) {
            out.meaning = TraceMeaning::Read;
            out.detail = QStringLiteral("its holder's script changed nothing");
        } else if (former && kind != ScriptKinds::Kind::Acquire) {
            out.meaning =
                kind == ScriptKinds::Kind::Extend ? TraceMeaning::StaleExtend : TraceMeaning::StaleRelease;
            out.token = former->token;
            out.detail = formerText(*former) + QStringLiteral("; now ") + heldBy(*before);
        } else if (kind == ScriptKinds::Kind::Release || kind == ScriptKinds::Kind::Extend) {
            // A token never seen holding the lock: most often a refused contender tidying up (node-redlock
            // releases every master after a failed attempt), not an attempt of its own.
            out.meaning = TraceMeaning::Other;
            out.token = argv.value(0);
            out.detail = QStringLiteral("its token does not hold the lock: nothing done; ") + heldBy(*before);
        } else if (kind == ScriptKinds::Kind::Acquire) {
            out.meaning = TraceMeaning::Refused;
            out.token = argv.value(0);
            out.detail = heldBy(*before);
        } else {
            // A script never seen changing the lock and whose source the trace has not seen (an
            // EVALSHA loaded before it began): what it is for is not known, so it counts as nothing.
            out.meaning = TraceMeaning::Other;
            out.detail = QStringLiteral("the script changed nothing; what it is for is not known yet; ") +
                         heldBy(*before);
        }
        return;
    }
    // Free before and after: a stale holder's release or extend finds nothing (its lease ended);
    // a token that never held the lock here is a refused contender tidying up (node-redlock releases
    // every master after a failed attempt), not a stale holder.
    if (former && kind != ScriptKinds::Kind::Acquire) {
        out.meaning =
            kind == ScriptKinds::Kind::Extend ? TraceMeaning::StaleExtend : TraceMeaning::StaleRelease;
        out.token = former->token;
        out.detail = formerText(*former) + QStringLiteral("; the lock is free");
        return;
    }
    out.meaning = TraceMeaning::Other;
    out.token = argv.value(0);
    out.detail = kind == ScriptKinds::Kind::Release
                     ? QStringLiteral("a release by a token that never held it here: nothing to release")
                     : QStringLiteral("the script changed nothing");
}

void CommandInterpreter::interpretPlain(TracedCommand& out, const MonitorLine& command,
                                        const std::optional<LockKeyModel::Holder>& before)
{
    const QByteArray name = command.command();
    const KeyWrite w = KeyWrite::of(command.args, command.timeUs);
    const Applied a = apply(command.args, command.client, command.timeUs);
    const bool fromHolder = before && !before->client.isEmpty() && command.client == before->client;
    switch (w.kind) {
    case KeyWrite::Kind::None:
        out.meaning = isWaiterCommand(name) ? TraceMeaning::Waiting
                      : isReadCommand(name) ? TraceMeaning::Read
                                            : TraceMeaning::Other;
        return;
    case KeyWrite::Kind::SetIfAbsent:
        out.token = w.value;
        out.meaning = a.took ? TraceMeaning::Acquired : TraceMeaning::Refused;
        if (before)
            out.detail = heldBy(*before);
        return;
    case KeyWrite::Kind::Set:
    case KeyWrite::Kind::SetIfPresent:
    case KeyWrite::Kind::HashEnter:
        out.token = w.value;
        if (a.took) {
            out.meaning = TraceMeaning::Acquired;
            out.detail = QStringLiteral("an unguarded write (no NX) took the free lock");
        } else if (a.replaced) {
            out.meaning = TraceMeaning::Replaced;
            out.detail = QStringLiteral("written over: ") + heldBy(*before);
        } else if (a.renewed) {
            out.meaning = TraceMeaning::Extended;
        } else {
            out.meaning = TraceMeaning::Other;
            out.detail = QStringLiteral("nothing written: the lock is free");
        }
        return;
    case KeyWrite::Kind::Delete:
        if (!before) {
            out.meaning = TraceMeaning::Other;
            out.detail = QStringLiteral("nothing to delete: the lock is free");
            return;
        }
        out.token = before->token;
        if (fromHolder) {
            out.meaning = TraceMeaning::Released;
            out.detail = QStringLiteral("a plain DEL from the holder's connection (not token-checked)");
            return;
        }
        out.meaning = TraceMeaning::DeletedByNonHolder;
        out.detail = heldBy(*before);
        if (const LockKeyModel::Holder* mine = m_model.formerFromClient(command.client);
            mine && mine->token != before->token)
            out.detail += QStringLiteral("; this connection's ") + formerText(*mine);
        return;
    case KeyWrite::Kind::Expire:
    case KeyWrite::Kind::Persist:
        if (!before) {
            out.meaning = TraceMeaning::Other;
            out.detail = QStringLiteral("no lock to extend: the lock is free");
            return;
        }
        out.token = before->token;
        out.meaning = TraceMeaning::Extended;
        if (!fromHolder)
            out.detail = QStringLiteral("not token-checked, and not from the connection that set it");
        return;
    case KeyWrite::Kind::HashLeave:
        out.meaning = a.left ? TraceMeaning::Released : TraceMeaning::Other;
        return;
    }
}

} // namespace lockscope
