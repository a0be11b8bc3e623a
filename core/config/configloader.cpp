// SPDX-License-Identifier: Apache-2.0
#include "config/configloader.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <cmath>
#include <limits>

namespace lockscope {

namespace {

class Reader
{
public:
    Reader(QString source, QStringList* warnings) : m_source(std::move(source)), m_warnings(warnings) {}

    RedisError error(const QString& field, const QString& what) const
    {
        const QString where = m_source.isEmpty() ? QString() : m_source + QStringLiteral(": ");
        return {ErrorKind::InvalidConfig, QString(),
                where + QStringLiteral("field \"%1\": %2").arg(field, what)};
    }

    void checkKnown(const QJsonObject& object, const QString& path, const QSet<QString>& known)
    {
        for (auto it = object.begin(); it != object.end(); ++it)
            if (!known.contains(it.key()) && m_warnings)
                *m_warnings << QStringLiteral("%1unknown field \"%2%3\" ignored")
                                   .arg(m_source.isEmpty() ? QString() : m_source + QStringLiteral(": "),
                                        path.isEmpty() ? QString() : path + QLatin1Char('.'), it.key());
    }

    bool readInt(const QJsonObject& o, const QString& key, const QString& path, int min, int max, int* out,
                 RedisError* err) const
    {
        if (!o.contains(key))
            return true;
        const QJsonValue v = o.value(key);
        const double d = v.toDouble(-1e300);
        // Range first: converting a double outside qint64's range to an integer is undefined.
        if (!v.isDouble() || d < min || d > max || d != std::floor(d)) {
            *err =
                error(path + key, QStringLiteral("expected a whole number from %1 to %2").arg(min).arg(max));
            return false;
        }
        *out = int(d);
        return true;
    }

    bool readString(const QJsonObject& o, const QString& key, const QString& path, QString* out,
                    RedisError* err) const
    {
        if (!o.contains(key))
            return true;
        if (!o.value(key).isString()) {
            *err = error(path + key, QStringLiteral("expected a string"));
            return false;
        }
        *out = o.value(key).toString();
        return true;
    }

    // "teamDatabase": "postgresql://…", "teamDatabasePasswordEnv": "VAR".
    bool readTeamDatabase(const QJsonObject& o, LockScopeConfig* config, RedisError* err) const
    {
        QString url;
        QString passwordEnv;
        if (!readString(o, QStringLiteral("teamDatabase"), QString(), &url, err) ||
            !readString(o, QStringLiteral("teamDatabasePasswordEnv"), QString(), &passwordEnv, err))
            return false;
        if (url.isEmpty() && passwordEnv.isEmpty())
            return true;
        if (const RedisError e = ConfigLoader::setTeamDatabase(*config, url, passwordEnv); e.isError())
            return fail(err, QStringLiteral("teamDatabase"), e.message);
        return true;
    }

    // "scanRate": "auto", "max", or keys a second (a number, or a string such as "50k").
    bool readScanRate(const QJsonObject& o, ScanRate* out, RedisError* err) const
    {
        const QString key = QStringLiteral("scanRate");
        if (!o.contains(key))
            return true;
        const QJsonValue v = o.value(key);
        const QString text = v.isDouble() ? QString::number(v.toDouble(), 'f', 0) : v.toString();
        const Result<ScanRate> rate = ScanRate::parse(text);
        if ((!v.isString() && !v.isDouble()) || (v.isDouble() && v.toDouble() != std::floor(v.toDouble())) ||
            !rate) {
            *err =
                error(key, QStringLiteral("expected \"auto\", \"max\" or a whole number of keys a second"));
            return false;
        }
        *out = *rate;
        return true;
    }

    bool readBool(const QJsonObject& o, const QString& key, const QString& path, bool* out,
                  RedisError* err) const
    {
        if (!o.contains(key))
            return true;
        if (!o.value(key).isBool()) {
            *err = error(path + key, QStringLiteral("expected true or false"));
            return false;
        }
        *out = o.value(key).toBool();
        return true;
    }

    bool readTls(const QJsonObject& parent, const QString& path, TlsOptions* tls, RedisError* err)
    {
        if (!parent.contains(QStringLiteral("tls")))
            return true;
        if (!parent.value(QStringLiteral("tls")).isObject()) {
            *err = error(path + QStringLiteral("tls"), QStringLiteral("expected an object"));
            return false;
        }
        const QJsonObject o = parent.value(QStringLiteral("tls")).toObject();
        const QString p = path + QStringLiteral("tls.");
        checkKnown(o, path + QStringLiteral("tls"),
                   {QStringLiteral("ca"), QStringLiteral("cert"), QStringLiteral("key"),
                    QStringLiteral("serverName"), QStringLiteral("insecure")});
        return readString(o, QStringLiteral("ca"), p, &tls->caFile, err) &&
               readString(o, QStringLiteral("cert"), p, &tls->certFile, err) &&
               readString(o, QStringLiteral("key"), p, &tls->keyFile, err) &&
               readString(o, QStringLiteral("serverName"), p, &tls->serverName, err) &&
               readBool(o, QStringLiteral("insecure"), p, &tls->insecure, err);
    }

    // The document's scalar settings, and the global TLS options every master starts from.
    bool readSettings(const QJsonObject& root, LockScopeConfig* config, TlsOptions* globalTls,
                      RedisError* err)
    {
        MonitorSettings& m = config->monitor;
        return readInt(root, QStringLiteral("timeoutMs"), QString(), 1, 600000, &config->timeoutMs, err) &&
               readInt(root, QStringLiteral("scanCount"), QString(), 1, 1000000, &m.scanCount, err) &&
               readInt(root, QStringLiteral("pollIntervalMs"), QString(), 50, 86400000, &m.pollIntervalMs,
                       err) &&
               readInt(root, QStringLiteral("reconcileIntervalMs"), QString(), 100, 86400000,
                       &m.reconcileIntervalMs, err) &&
               readInt(root, QStringLiteral("maxValueBytes"), QString(), 16, 64 * 1024 * 1024,
                       &m.maxValueBytes, err) &&
               readInt(root, QStringLiteral("maxFields"), QString(), 1, 1000000, &m.maxFields, err) &&
               readScanRate(root, &m.scanRate, err) &&
               readBool(root, QStringLiteral("readOnly"), QString(), &config->readOnly, err) &&
               readString(root, QStringLiteral("auditLog"), QString(), &config->auditLogPath, err) &&
               readBool(root, QStringLiteral("allowSharedAuditLog"), QString(), &config->allowSharedAuditLog,
                        err) &&
               readTeamDatabase(root, config, err) && readTls(root, QString(), globalTls, err);
    }

    // "patterns": glob strings ("locks" patterns) or {"match", "mode"} objects; replaces the default.
    bool readPatterns(const QJsonObject& root, QList<ScanPattern>* patterns, RedisError* err)
    {
        if (!root.contains(QStringLiteral("patterns")))
            return true;
        const QJsonValue v = root.value(QStringLiteral("patterns"));
        if (!v.isArray())
            return fail(err, QStringLiteral("patterns"),
                        QStringLiteral("expected an array of glob strings or {\"match\", \"mode\"} objects"));
        patterns->clear();
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QString p = QStringLiteral("patterns[%1]").arg(i);
            // A plain string is a "locks" pattern, as it always was.
            if (a.at(i).isString()) {
                if (a.at(i).toString().isEmpty())
                    return fail(err, p, QStringLiteral("expected a non-empty string"));
                *patterns << ScanPattern(a.at(i).toString().toUtf8());
                continue;
            }
            if (!a.at(i).isObject())
                return fail(err, p,
                            QStringLiteral("expected a non-empty string or a {\"match\", \"mode\"} object"));
            const QJsonObject o = a.at(i).toObject();
            checkKnown(o, p, {QStringLiteral("match"), QStringLiteral("mode")});
            QString match;
            QString modeName = patternModeName(PatternMode::Locks);
            if (!readString(o, QStringLiteral("match"), p + QLatin1Char('.'), &match, err) ||
                !readString(o, QStringLiteral("mode"), p + QLatin1Char('.'), &modeName, err))
                return false;
            if (match.isEmpty())
                return fail(err, p + QStringLiteral(".match"),
                            QStringLiteral("expected a non-empty glob string"));
            const std::optional<PatternMode> mode = patternModeFromName(modeName);
            if (!mode)
                return fail(err, p + QStringLiteral(".mode"),
                            QStringLiteral("expected \"locks\", \"discover\" or \"fencing\""));
            *patterns << ScanPattern(match.toUtf8(), *mode);
        }
        if (patterns->isEmpty())
            return fail(err, QStringLiteral("patterns"), QStringLiteral("needs at least one pattern"));
        return true;
    }

    // "replyLimits": how large a reply from a server may be.
    bool readReplyLimits(const QJsonObject& root, ReplyLimits* limits, RedisError* err)
    {
        if (!root.contains(QStringLiteral("replyLimits")))
            return true;
        if (!root.value(QStringLiteral("replyLimits")).isObject())
            return fail(err, QStringLiteral("replyLimits"), QStringLiteral("expected an object"));
        const QJsonObject o = root.value(QStringLiteral("replyLimits")).toObject();
        const QString p = QStringLiteral("replyLimits.");
        checkKnown(o, QStringLiteral("replyLimits"),
                   {QStringLiteral("maxBulkBytes"), QStringLiteral("maxElements"), QStringLiteral("maxDepth"),
                    QStringLiteral("maxReplyBytes")});
        int bulk = int(limits->maxBulkBytes);
        int elements = int(limits->maxElements);
        int reply = int(limits->maxReplyBytes);
        constexpr int most = std::numeric_limits<int>::max();
        if (!readInt(o, QStringLiteral("maxBulkBytes"), p, 1024, most, &bulk, err) ||
            !readInt(o, QStringLiteral("maxElements"), p, 16, most, &elements, err) ||
            !readInt(o, QStringLiteral("maxDepth"), p, 1, ReplyLimits::hiredisMaxDepth, &limits->maxDepth,
                     err) ||
            !readInt(o, QStringLiteral("maxReplyBytes"), p, 1024, most, &reply, err))
            return false;
        limits->maxBulkBytes = bulk;
        limits->maxElements = elements;
        limits->maxReplyBytes = reply;
        return true;
    }

    // "redlock": the algorithm's drift, retry and per-master timeout settings.
    bool readRedlock(const QJsonObject& root, RedlockSettings* rl, RedisError* err)
    {
        if (!root.contains(QStringLiteral("redlock")))
            return true;
        if (!root.value(QStringLiteral("redlock")).isObject())
            return fail(err, QStringLiteral("redlock"), QStringLiteral("expected an object"));
        const QJsonObject o = root.value(QStringLiteral("redlock")).toObject();
        const QString p = QStringLiteral("redlock.");
        checkKnown(o, QStringLiteral("redlock"),
                   {QStringLiteral("driftFactor"), QStringLiteral("driftMs"), QStringLiteral("retryCount"),
                    QStringLiteral("retryDelayMs"), QStringLiteral("retryJitterMs"),
                    QStringLiteral("masterTimeoutMs")});
        if (o.contains(QStringLiteral("driftFactor"))) {
            const QJsonValue v = o.value(QStringLiteral("driftFactor"));
            if (!v.isDouble() || v.toDouble() < 0 || v.toDouble() >= 0.5)
                return fail(err, p + QStringLiteral("driftFactor"),
                            QStringLiteral("expected a number from 0 to 0.5"));
            rl->driftFactor = v.toDouble();
        }
        return readInt(o, QStringLiteral("driftMs"), p, 0, 60000, &rl->driftConstantMs, err) &&
               readInt(o, QStringLiteral("retryCount"), p, 0, 100000, &rl->retryCount, err) &&
               readInt(o, QStringLiteral("retryDelayMs"), p, 0, 600000, &rl->retryDelayMs, err) &&
               readInt(o, QStringLiteral("retryJitterMs"), p, 0, 600000, &rl->retryJitterMs, err) &&
               readInt(o, QStringLiteral("masterTimeoutMs"), p, 1, 600000, &rl->masterTimeoutMs, err);
    }

    // "ownerRules": where the owner is in a lock's value, per key glob.
    bool readOwnerRules(const QJsonObject& root, QList<OwnerRule>* rules, RedisError* err)
    {
        if (!root.contains(QStringLiteral("ownerRules")))
            return true;
        if (!root.value(QStringLiteral("ownerRules")).isArray())
            return fail(err, QStringLiteral("ownerRules"), QStringLiteral("expected an array"));
        const QJsonArray a = root.value(QStringLiteral("ownerRules")).toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QString p = QStringLiteral("ownerRules[%1].").arg(i);
            if (!a.at(i).isObject())
                return fail(err, p.chopped(1), QStringLiteral("expected an object"));
            const QJsonObject o = a.at(i).toObject();
            checkKnown(o, p.chopped(1), {QStringLiteral("keys"), QStringLiteral("pattern")});
            OwnerRule rule;
            QString pattern;
            if (!readString(o, QStringLiteral("keys"), p, &rule.keyGlob, err) ||
                !readString(o, QStringLiteral("pattern"), p, &pattern, err))
                return false;
            rule.pattern = QRegularExpression(pattern);
            if (pattern.isEmpty() || !rule.pattern.isValid())
                return fail(
                    err, p + QStringLiteral("pattern"),
                    QStringLiteral("not a valid regular expression: %1").arg(rule.pattern.errorString()));
            *rules << rule;
        }
        return true;
    }

    // "masters": URL strings or objects; each starts from the global TLS options and timeout and takes
    // the reply limits (so those are read first).
    bool readMasters(const QJsonObject& root, const TlsOptions& globalTls, LockScopeConfig* config,
                     RedisError* err)
    {
        if (!root.contains(QStringLiteral("masters")))
            return true;
        if (!root.value(QStringLiteral("masters")).isArray())
            return fail(err, QStringLiteral("masters"),
                        QStringLiteral("expected an array of URLs or objects"));
        const QJsonArray a = root.value(QStringLiteral("masters")).toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            if (!readMaster(a.at(i), QStringLiteral("masters[%1]").arg(i), globalTls, config, err))
                return false;
        return true;
    }

    // One entry of "masters", at `p`.
    bool readMaster(const QJsonValue& entry, const QString& p, const TlsOptions& globalTls,
                    LockScopeConfig* config, RedisError* err)
    {
        QString url;
        TlsOptions tls = globalTls;
        int timeout = config->timeoutMs;
        QString passwordEnv;
        QString user;
        if (entry.isString()) {
            url = entry.toString();
        } else if (entry.isObject()) {
            const QJsonObject o = entry.toObject();
            checkKnown(o, p,
                       {QStringLiteral("url"), QStringLiteral("tls"), QStringLiteral("timeoutMs"),
                        QStringLiteral("passwordEnv"), QStringLiteral("user")});
            if (!o.value(QStringLiteral("url")).isString())
                return fail(err, p + QStringLiteral(".url"), QStringLiteral("expected a URL string"));
            url = o.value(QStringLiteral("url")).toString();
            if (!readTls(o, p + QLatin1Char('.'), &tls, err) ||
                !readInt(o, QStringLiteral("timeoutMs"), p + QLatin1Char('.'), 1, 600000, &timeout, err) ||
                !readString(o, QStringLiteral("passwordEnv"), p + QLatin1Char('.'), &passwordEnv, err) ||
                !readString(o, QStringLiteral("user"), p + QLatin1Char('.'), &user, err))
                return false;
        } else {
            return fail(err, p, QStringLiteral("expected a URL string or an object"));
        }
        Result<ConnectionOptions> master = ConfigLoader::masterFromUrl(url, tls, timeout);
        if (!master)
            return fail(err, p, master.error().message);
        if (!user.isEmpty())
            ConfigLoader::setMasterUser(*master, user);
        if (!passwordEnv.isEmpty()) {
            const QByteArray secret = qgetenv(passwordEnv.toLocal8Bit().constData());
            if (secret.isEmpty())
                return fail(err, p + QStringLiteral(".passwordEnv"),
                            QStringLiteral("environment variable %1 is not set").arg(passwordEnv));
            ConfigLoader::setMasterPassword(*master, QString::fromUtf8(secret));
            config->passwordEnvVars << passwordEnv;
        }
        master->replyLimits = config->replyLimits;
        config->masters << *master;
        return true;
    }

private:
    bool fail(RedisError* err, const QString& field, const QString& what) const
    {
        *err = error(field, what);
        return false;
    }

    QString m_source;
    QStringList* m_warnings;
};

int lineOf(const QByteArray& json, int offset)
{
    return int(json.left(offset).count('\n')) + 1;
}

// The document as a JSON object; a syntax error names its line.
Result<QJsonObject> readDocument(const QByteArray& json, const QString& sourceName)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    const QString where = sourceName.isEmpty() ? QString() : sourceName + QLatin1Char(':');
    if (parseError.error != QJsonParseError::NoError)
        return RedisError(ErrorKind::InvalidConfig, QString(),
                          QStringLiteral("%1line %2: %3")
                              .arg(where)
                              .arg(lineOf(json, parseError.offset))
                              .arg(parseError.errorString()));
    if (!doc.isObject())
        return RedisError(ErrorKind::InvalidConfig, QString(),
                          QStringLiteral("%1line 1: the configuration must be a JSON object").arg(where));
    return doc.object();
}

} // namespace

Result<ConnectionOptions> ConfigLoader::masterFromUrl(const QString& url, const TlsOptions& tls,
                                                      int timeoutMs)
{
    ConnectionOptions options;
    if (TopologyUrl::hasTopologyScheme(url)) {
        Result<TopologyUrl> topology = TopologyUrl::parse(url);
        if (!topology)
            return topology.error();
        // No node is known yet: `url` stays empty (a Sentinel entry's until the sentinels name a
        // primary; a cluster entry's for good, since it routes to many).
        options.topology = *topology;
    } else {
        Result<RedisUrl> parsed = RedisUrl::parse(url);
        if (!parsed)
            return parsed.error();
        options.url = *parsed;
    }
    options.tls = tls;
    options.commandTimeoutMs = timeoutMs;
    options.connectTimeoutMs = timeoutMs;
    return options;
}

void ConfigLoader::setMasterUser(ConnectionOptions& master, const QString& user)
{
    master.url.setUser(user);
    if (master.topology)
        master.topology->setUser(user);
}

void ConfigLoader::setMasterPassword(ConnectionOptions& master, const QString& password)
{
    master.url.setPassword(password);
    if (master.topology)
        master.topology->setPassword(password);
}

Result<LockScopeConfig> ConfigLoader::fromFile(const QString& path, QStringList* warnings)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return RedisError(ErrorKind::InvalidConfig, QString(),
                          QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    if (file.size() > 16 * 1024 * 1024)
        return RedisError(ErrorKind::InvalidConfig, QString(),
                          QStringLiteral("%1: larger than 16 MB").arg(path));
    return fromJson(file.readAll(), warnings, path);
}

Result<LockScopeConfig> ConfigLoader::fromJson(const QByteArray& json, QStringList* warnings,
                                               const QString& sourceName)
{
    const Result<QJsonObject> document = readDocument(json, sourceName);
    if (!document)
        return document.error();
    const QJsonObject& root = *document;
    Reader r(sourceName, warnings);
    r.checkKnown(root, QString(),
                 {QStringLiteral("masters"), QStringLiteral("patterns"), QStringLiteral("scanCount"),
                  QStringLiteral("pollIntervalMs"), QStringLiteral("reconcileIntervalMs"),
                  QStringLiteral("timeoutMs"), QStringLiteral("tls"), QStringLiteral("ownerRules"),
                  QStringLiteral("readOnly"), QStringLiteral("auditLog"), QStringLiteral("redlock"),
                  QStringLiteral("maxValueBytes"), QStringLiteral("maxFields"),
                  QStringLiteral("allowSharedAuditLog"), QStringLiteral("replyLimits"),
                  QStringLiteral("scanRate"), QStringLiteral("teamDatabase"),
                  QStringLiteral("teamDatabasePasswordEnv")});

    // In this order: a master takes the timeout and reply limits read before it, and the first
    // error found is the one reported.
    LockScopeConfig config;
    TlsOptions globalTls;
    RedisError err;
    if (!r.readSettings(root, &config, &globalTls, &err) ||
        !r.readPatterns(root, &config.monitor.patterns, &err) ||
        !r.readReplyLimits(root, &config.replyLimits, &err) || !r.readRedlock(root, &config.redlock, &err) ||
        !r.readOwnerRules(root, &config.ownerRules, &err) || !r.readMasters(root, globalTls, &config, &err))
        return err;
    return config;
}

RedisError ConfigLoader::setTeamDatabase(LockScopeConfig& config, const QString& url,
                                         const QString& passwordEnv)
{
    // A password variable alone is the password of a recording kept in PostgreSQL
    // (`--db postgresql://…`), which needs no team database for its audit trail.
    if (!url.isEmpty()) { // empty: the password of the one configured already
        Result<TeamDatabaseUrl> parsed = TeamDatabaseUrl::parse(url);
        if (!parsed)
            return parsed.error();
        config.teamDatabase = *parsed;
        config.teamDatabasePassword.clear();
    }
    if (!passwordEnv.isEmpty()) {
        const QByteArray secret = qgetenv(passwordEnv.toLocal8Bit().constData());
        if (secret.isEmpty())
            return {ErrorKind::InvalidConfig, QString(),
                    QStringLiteral("environment variable %1 is not set").arg(passwordEnv)};
        config.teamDatabasePassword = QString::fromUtf8(secret);
        config.passwordEnvVars << passwordEnv;
    }
    return {};
}

} // namespace lockscope
