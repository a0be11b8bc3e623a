#include "masterscanner.h"

#include "keyreader.h"
#include "observationsink.h"

namespace lockscope {

namespace {

// SCAN walks the table in reverse-binary order, so the bit-reversed cursor grows monotonically
// from 0 to 2^64 over a pass: its value is the fraction of the keyspace already covered.
double scanFraction(const QByteArray& cursor)
{
    quint64 v = cursor.toULongLong();
    quint64 reversed = 0;
    for (int i = 0; i < 64; ++i) {
        reversed = (reversed << 1) | (v & 1);
        v >>= 1;
    }
    return double(reversed) / 18446744073709551616.0;
}

} // namespace

MasterScanner::MasterScanner(int index, RedisConnection* connection, MonitorSettings settings,
                             ObservationSink* sink, QObject* parent)
    : QObject(parent), m_index(index), m_connection(connection), m_settings(std::move(settings)), m_sink(sink)
{
    m_eventPrefix = "__keyspace@" + QByteArray::number(connection->options().url.db()) + "__:";
    m_eventTimer.setSingleShot(true);
    m_eventTimer.setInterval(1); // gathers a burst of events into one pipelined read
    connect(&m_eventTimer, &QTimer::timeout, this, &MasterScanner::flushEventReads);
    m_passTimer.setSingleShot(true);
    connect(&m_passTimer, &QTimer::timeout, this, &MasterScanner::requestPass);
    connect(m_connection, &RedisConnection::stateChanged, this,
            [this](RedisConnection::State state) { onStateChanged(state); });
}

MasterScanner::~MasterScanner() = default;

void MasterScanner::start()
{
    if (m_connection->isUp())
        onStateChanged(RedisConnection::State::Up);
}

void MasterScanner::onStateChanged(RedisConnection::State state)
{
    if (state == RedisConnection::State::Up) {
        // A (re)connect may follow a restart or a long outage: the mode and every key are read afresh.
        detectMode();
        requestPass();
    } else if (state == RedisConnection::State::Down || state == RedisConnection::State::Disconnected) {
        m_passTimer.stop();
        m_scanning = false;
        m_passRequested = false;
        ++m_pass; // replies of the aborted pass are ignored
        stopSubscriber();
        setMode(NotificationMode::Unknown, m_connection->lastError().message);
    }
}

void MasterScanner::detectMode()
{
    m_connection->send({"CONFIG", "GET", "notify-keyspace-events"}, this, [this](const RedisResult& r) {
        if (!r.ok())
            return;
        if (r.reply.isError()) {
            stopSubscriber();
            setMode(NotificationMode::Polling, QStringLiteral("cannot read notify-keyspace-events (%1)")
                                                   .arg(QString::fromUtf8(r.reply.string)));
            return;
        }
        const QByteArray flags = r.reply.elements.size() == 2 ? r.reply.elements[1].string : QByteArray();
        if (!notificationFlagsSuffice(flags)) {
            stopSubscriber();
            setMode(NotificationMode::Polling,
                    flags.isEmpty()
                        ? QStringLiteral("keyspace notifications are off")
                        : QStringLiteral("notify-keyspace-events is \"%1\"; LockScope needs K and A "
                                         "(or g$hzx)")
                              .arg(QString::fromUtf8(flags)));
            return;
        }
        startSubscriber();
    });
}

void MasterScanner::startSubscriber()
{
    if (m_subscriber)
        return;
    ConnectionOptions options = m_connection->options();
    options.clientName = "lockscope-events";
    m_subscriber = std::make_unique<RedisConnection>(options);
    QByteArrayList channels;
    for (const QByteArray& p : m_settings.patterns)
        channels << m_eventPrefix + p;
    connect(m_subscriber.get(), &RedisConnection::messageReceived, this, &MasterScanner::onEvent);
    connect(m_subscriber.get(), &RedisConnection::stateChanged, this, [this](RedisConnection::State state) {
        if (state == RedisConnection::State::Up) {
            // PSUBSCRIBE went out ahead of Up; a PING behind it is answered only once the server has
            // registered the patterns, so from then on no event can slip by unseen. The pass that
            // follows covers what happened before.
            m_subscriber->send({"PING"}, this, [this](const RedisResult& r) {
                if (!r.ok() || r.reply.isError())
                    return;
                setMode(NotificationMode::Live, QStringLiteral("keyspace notifications"));
                requestPass();
            });
        } else if (state == RedisConnection::State::Down && m_connection->isUp()) {
            setMode(NotificationMode::Polling,
                    QStringLiteral("event connection down: %1").arg(m_subscriber->lastError().message));
            schedulePass();
        }
    });
    m_subscriber->psubscribe(channels);
    m_subscriber->open();
}

void MasterScanner::stopSubscriber()
{
    if (!m_subscriber)
        return;
    m_subscriber->disconnect(this);
    m_subscriber->close();
    m_subscriber.reset();
}

void MasterScanner::setMode(NotificationMode mode, const QString& reason)
{
    if (m_mode == mode && m_modeReason == reason)
        return;
    m_mode = mode;
    m_modeReason = reason;
    emit modeChanged(m_index, mode, reason);
}

void MasterScanner::enableNotifications(std::function<void(const RedisError&)> done)
{
    m_connection->send({"CONFIG", "GET", "notify-keyspace-events"}, this, [this, done](const RedisResult& r) {
        if (const RedisError e = r.anyError(m_connection->name()); e.isError()) {
            done(e);
            return;
        }
        const QByteArray flags = r.reply.elements.size() == 2 ? r.reply.elements[1].string : QByteArray();
        m_connection->send({"CONFIG", "SET", "notify-keyspace-events", notificationFlagsWithNeeded(flags)},
                           this, [this, done](const RedisResult& set) {
                               const RedisError e = set.anyError(m_connection->name());
                               if (!e.isError())
                                   detectMode();
                               done(e);
                           });
    });
}

void MasterScanner::requestPass()
{
    if (!m_connection->isUp())
        return;
    if (m_scanning) {
        m_passRequested = true;
        return;
    }
    beginPass();
}

void MasterScanner::schedulePass()
{
    const int interval =
        m_mode == NotificationMode::Live ? m_settings.reconcileIntervalMs : m_settings.pollIntervalMs;
    m_passTimer.start(interval);
}

void MasterScanner::beginPass()
{
    m_passTimer.stop();
    m_scanning = true;
    m_passRequested = false;
    m_scansDone = false;
    ++m_pass; // every key is unmet again
    const quint32 pass = m_pass;
    m_connection->send({"DBSIZE"}, this, [this, pass](const RedisResult& r) {
        if (pass == m_pass && r.ok() && r.reply.isInteger())
            m_dbSize = r.reply.integer;
    });
    scanPage(0, "0");
}

void MasterScanner::scanPage(int pattern, const QByteArray& cursor)
{
    const quint32 pass = m_pass;
    m_connection->send(
        {"SCAN", cursor, "MATCH", m_settings.patterns.at(pattern), "COUNT",
         QByteArray::number(m_settings.scanCount)},
        this, [this, pass, pattern](const RedisResult& r) {
            if (pass != m_pass)
                return;
            if (!r.ok() || !r.reply.isArray() || r.reply.elements.size() != 2) {
                // The connection's own failure handling resets the pass; a server error
                // (e.g. NOPERM on SCAN) ends it here.
                if (r.ok()) {
                    m_scansDone = true;
                    maybeFinishPass();
                }
                return;
            }
            const QByteArray next = r.reply.elements[0].string;
            QByteArrayList keys;
            keys.reserve(r.reply.elements[1].elements.size());
            for (const RedisReply& k : r.reply.elements[1].elements) {
                KeyMark& mark = m_keys[k.string];
                if (mark.metInPass != m_pass) {
                    mark.metInPass = m_pass;
                    keys << k.string;
                }
            }
            const int patterns = int(m_settings.patterns.size());
            if (next != "0")
                scanPage(pattern, next); // asked before reading this page: the pipeline stays full
            else if (pattern + 1 < patterns)
                scanPage(pattern + 1, "0");
            else
                m_scansDone = true;
            const double fraction = next == "0" ? 1.0 : scanFraction(next);
            emit scanProgress(m_index, qint64((pattern + fraction) / patterns * double(m_dbSize)), m_dbSize);
            readKeys(keys, true);
            maybeFinishPass();
        });
}

void MasterScanner::readKeys(const QByteArrayList& keys, bool fromPass)
{
    if (keys.isEmpty())
        return;
    const quint32 pass = m_pass;
    if (fromPass)
        ++m_readsInFlight;
    KeyReader::read(
        m_connection, keys, m_settings,
        [this, keys, pass, fromPass, guard = QPointer<MasterScanner>(this)](QList<KeyObservation> obs) {
            if (!guard)
                return;
            if (fromPass && pass == m_pass)
                --m_readsInFlight;
            for (qsizetype i = 0; i < keys.size(); ++i) {
                KeyObservation& o = obs[i];
                if (o.error.isError())
                    continue; // the master-level state says why; keep what we knew
                if (o.present) {
                    KeyMark& mark = m_keys[keys.at(i)];
                    if (!mark.known) {
                        mark.known = true;
                        ++m_knownCount;
                    }
                    m_sink->keyObserved(m_index, keys.at(i), std::move(o));
                } else if (auto mark = m_keys.find(keys.at(i)); mark != m_keys.end() && mark->known) {
                    mark->known = false; // the entry itself goes at the pass end
                    --m_knownCount;
                    m_sink->keyRemoved(m_index, keys.at(i));
                }
            }
            if (fromPass && pass == m_pass)
                maybeFinishPass();
        });
}

void MasterScanner::maybeFinishPass()
{
    if (!m_scanning || !m_scansDone || m_readsInFlight > 0)
        return;
    // Every key present for the whole pass was returned by SCAN; what we knew and did not meet is gone.
    // Keys met but not present (deleted between SCAN and the read) are forgotten too.
    QByteArrayList gone;
    for (auto it = m_keys.begin(); it != m_keys.end();) {
        if (it->known && it->metInPass != m_pass) {
            gone << it.key();
            --m_knownCount;
            it->known = false;
        }
        if (it->known)
            ++it;
        else
            it = m_keys.erase(it);
    }
    for (const QByteArray& key : std::as_const(gone))
        m_sink->keyRemoved(m_index, key);
    m_scanning = false;
    ++m_completedPasses;
    emit scanProgress(m_index, m_dbSize, m_dbSize);
    emit passFinished(m_index);
    if (m_passRequested)
        beginPass();
    else
        schedulePass();
}

void MasterScanner::onEvent(const QByteArray&, const QByteArray& channel, const QByteArray& payload)
{
    if (!channel.startsWith(m_eventPrefix))
        return;
    const QByteArray key = channel.mid(m_eventPrefix.size());
    emit keyspaceEvent(m_index, key, payload);
    m_eventKeys.insert(key);
    if (m_scanning)
        m_keys[key].metInPass = m_pass; // a key born mid-pass may be missed by SCAN; the event read covers it
    if (!m_eventTimer.isActive())
        m_eventTimer.start();
}

void MasterScanner::flushEventReads()
{
    if (m_eventKeys.isEmpty() || !m_connection->isUp())
        return;
    const QByteArrayList keys(m_eventKeys.cbegin(), m_eventKeys.cend());
    m_eventKeys.clear();
    readKeys(keys, false);
}

} // namespace lockscope
