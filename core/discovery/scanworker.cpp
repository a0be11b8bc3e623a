// SPDX-License-Identifier: Apache-2.0
#include "discovery/scanworker.h"

#include "base/monotonicclock.h"
#include "discovery/commandcountprobe.h"
#include "discovery/keyreader.h"
#include "discovery/scanbound.h"

#include <QPointer>

#include <utility>

namespace lockscope {

ScanWorker::ScanWorker(int index, MonitorSettings settings, std::shared_ptr<KeyPool> keyPool, QObject* parent)
    : QObject(parent), m_index(index), m_settings(std::move(settings)), m_plan(m_settings.patterns),
      m_pacer(m_settings.scanRate, m_settings.scanCount), m_eventTimer(new QTimer(this)),
      m_passTimer(new QTimer(this)), m_pageTimer(new QTimer(this))
{
    m_keys.setPool(std::move(keyPool));
    m_pageTimer->setSingleShot(true);
    m_pageTimer->setTimerType(Qt::PreciseTimer);
    connect(m_pageTimer, &QTimer::timeout, this, [this] { nextPage(m_pendingCursor); });
    m_eventTimer->setSingleShot(true);
    m_eventTimer->setInterval(1); // gathers a burst of events into one pipelined read
    connect(m_eventTimer, &QTimer::timeout, this, &ScanWorker::flushEvents);
    m_passTimer->setSingleShot(true);
    connect(m_passTimer, &QTimer::timeout, this, &ScanWorker::requestPass);
}

ScanWorker::~ScanWorker()
{
    shutdown();
}

void ScanWorker::shutdown()
{
    m_masterUp = false;
    m_eventTimer->stop();
    m_passTimer->stop();
    m_pageTimer->stop();
    stopSubscriber();
    if (m_connection) {
        m_connection->disconnect(this);
        m_connection.reset();
    }
}

void ScanWorker::follow(quint64 generation, const ConnectionOptions& master, const QByteArray& runId)
{
    m_generation = generation;
    m_masterUp = true;
    m_masterRunId = runId;
    setScanning(m_scanning); // what the MasterScanner may have dropped as stale is said again
    if (!m_connection || !m_options.sameEndpoint(master)) {
        openConnection(master);
        return; // its Up reads the mode and starts the pass
    }
    if (m_connection->isUp())
        onConnectionState(RedisConnection::State::Up);
    else
        m_connection->open(); // closed when the master went down (no-op while connecting)
}

void ScanWorker::prepare(const ConnectionOptions& master)
{
    if (!m_connection)
        openConnection(master);
}

void ScanWorker::openConnection(const ConnectionOptions& master)
{
    abortPass();
    stopSubscriber();
    if (m_connection) {
        m_connection->disconnect(this);
        m_connection.reset();
    }
    m_options = master;
    m_firstPass = true; // a new endpoint: its first discovery may run at `max`
    ConnectionOptions options = master;
    options.clientName = "lockscope-scan";
    // The master connection measures latency and notices restarts; this one only has to notice
    // that its own commands go unanswered, which the command timeout does.
    options.healthIntervalMs = 0;
    m_connection = std::make_unique<RedisConnection>(options);
    ++m_connectionSerial; // reads still out on the old one no longer count
    m_readOrder.reset();
    m_eventReadsInFlight = 0;
    connect(m_connection.get(), &RedisConnection::stateChanged, this,
            [this](RedisConnection::State state) { onConnectionState(state); });
    m_connection->open();
}

void ScanWorker::masterDown(quint64 generation, const QString& reason)
{
    m_generation = generation;
    m_masterUp = false; // first: closing below must not be taken for a failure of our own
    abortPass();
    stopSubscriber();
    // Our connection would retry on its own; the master connection's reconnect leads instead.
    if (m_connection)
        m_connection->close();
    setMode(NotificationMode::Unknown, reason);
}

bool ScanWorker::canScan() const
{
    return m_masterUp && m_connection && m_connection->isUp() && onMastersProcess();
}

bool ScanWorker::onMastersProcess() const
{
    const QByteArray& runId = m_connection->health().runId;
    return m_masterRunId.isEmpty() || runId.isEmpty() || runId == m_masterRunId;
}

void ScanWorker::onConnectionState(RedisConnection::State state)
{
    if (!m_masterUp)
        return;
    if (state == RedisConnection::State::Up) {
        // Ours reconnected to a restarted server before the master connection noticed the restart:
        // nothing is read until it has (canScan); it goes down and up, and follow() resumes.
        if (!onMastersProcess())
            return;
        // A (re)connect may follow a restart or a long outage: the mode and every key are read afresh.
        detectMode();
        requestPass();
    } else if (state == RedisConnection::State::Down || state == RedisConnection::State::Disconnected) {
        // Our own connection failed (e.g. a paused server timed a command out): the pass ends here
        // and the reason shows, though the master connection may not have noticed yet.
        abortPass();
        stopSubscriber();
        setMode(NotificationMode::Unknown, m_connection->lastError().message);
    }
}

void ScanWorker::abortPass()
{
    m_passTimer->stop();
    m_pageTimer->stop();
    setScanning(false);
    m_passRequested = false;
    m_awaitingDelivery = false;
    m_readsInFlight = 0;
    m_heldPage = HeldPage();
    ++m_pass; // replies of the aborted pass are ignored
}

void ScanWorker::detectMode()
{
    if (!canScan())
        return;
    m_connection->send({"CONFIG", "GET", "notify-keyspace-events"}, this, [this](const RedisResult& r) {
        if (!r.ok() || !m_masterUp)
            return;
        if (const QString problem = notificationConfigProblem(r.reply); !problem.isEmpty()) {
            stopSubscriber();
            setMode(NotificationMode::Polling, problem);
            return;
        }
        startSubscriber();
    });
}

void ScanWorker::startSubscriber()
{
    if (m_subscriber)
        return;
    KeyspaceSubscriber::Handlers handlers;
    // The pass that follows covers what happened before.
    handlers.listening = [this] {
        setMode(NotificationMode::Live, QStringLiteral("keyspace notifications"));
        requestPass();
    };
    handlers.lost = [this](const QString& reason) {
        if (!canScan())
            return;
        setMode(NotificationMode::Polling, QStringLiteral("event connection down: %1").arg(reason));
        schedulePass();
    };
    handlers.event = [this](const QByteArray& key, const QByteArray& event, qint64 ranAfterMs) {
        onEvent(key, event, ranAfterMs);
    };
    m_subscriber = std::make_unique<KeyspaceSubscriber>(m_options, m_settings.patterns, std::move(handlers));
    if (m_anchorEvents)
        m_subscriber->anchor();
}

void ScanWorker::anchorEvents()
{
    m_anchorEvents = true;
    if (m_subscriber)
        m_subscriber->anchor();
}

void ScanWorker::stopSubscriber()
{
    m_subscriber.reset();
}

void ScanWorker::setMode(NotificationMode mode, const QString& reason)
{
    // Said again in a new generation: the MasterScanner drops what was said in an older one.
    if (m_mode == mode && m_modeReason == reason && m_modeGeneration == m_generation)
        return;
    m_mode = mode;
    m_modeReason = reason;
    m_modeGeneration = m_generation;
    emit modeChanged(m_generation, mode, reason);
}

void ScanWorker::setScanning(bool scanning)
{
    if (m_scanning == scanning && m_scanningGeneration == m_generation)
        return;
    m_scanning = scanning;
    m_scanningGeneration = m_generation;
    emit scanningChanged(m_generation, scanning);
}

void ScanWorker::requestPass()
{
    if (!canScan())
        return;
    if (m_scanning || m_awaitingDelivery) {
        m_passRequested = true;
        return;
    }
    beginPass();
}

void ScanWorker::passDelivered()
{
    if (!m_awaitingDelivery)
        return; // an aborted pass's, or one of an older connection
    m_awaitingDelivery = false;
    if (m_passRequested && canScan())
        beginPass();
    else
        schedulePass();
}

void ScanWorker::schedulePass()
{
    const int interval =
        m_mode == NotificationMode::Live ? m_settings.reconcileIntervalMs : m_settings.pollIntervalMs;
    m_passTimer->start(interval);
}

void ScanWorker::beginPass()
{
    m_passTimer->stop();
    setScanning(true);
    m_passRequested = false;
    m_scansDone = false;
    m_readsInFlight = 0;
    m_heldPage = HeldPage();
    ++m_pass; // every key is unmet again
    m_passPages = 0;
    m_passKeysSeen = 0;
    m_passCovers = true;
    m_passLeastCount = m_settings.scanCount;
    m_dbSizeKnown = false;
    m_pacer.beginPass(m_firstPass);
    m_pauseDebtUs = 0;
    const quint32 pass = m_pass;
    m_connection->send({"DBSIZE"}, this, [this, pass](const RedisResult& r) {
        if (pass == m_pass && r.ok() && r.reply.isInteger()) {
            m_dbSize = r.reply.integer;
            m_dbSizeKnown = true;
        }
    });
    scanPage("0");
}

void ScanWorker::scanPage(const QByteArray& cursor)
{
    const quint32 pass = m_pass;
    const int count = m_pacer.count();
    m_passLeastCount = qMin(m_passLeastCount, count);
    m_pageStartNs = monotonicNs();
    if (m_pacer.wantsProbe()) {
        // Alone on the connection, answered before the page is asked for: its round trip is what any
        // client's trivial command waits right now. (Sent with the SCAN, its reply would wait for
        // the page's own work and measure our COUNT, not the server: an idle server then looked
        // busy, and a paced pass went at half speed.)
        const qint64 sentNs = m_pageStartNs;
        m_connection->send({"PING"}, this, [this, pass, cursor, count, sentNs](const RedisResult& r) {
            if (pass != m_pass)
                return;
            if (r.ok() && !r.reply.isError())
                m_pacer.probed((monotonicNs() - sentNs) / 1000);
            sendScan(cursor, count);
        });
        return;
    }
    sendScan(cursor, count);
}

void ScanWorker::sendScan(const QByteArray& cursor, int count)
{
    const quint32 pass = m_pass;
    const bool paced = m_pacer.paced();
    const bool covers = m_passCovers;
    const QByteArrayList command = m_plan.scanCommand(cursor, count, covers);
    CommandCountProbe::sendIfDue(m_connection.get(), &m_pacer, this);
    m_connection->sendScanPage(
        command, m_plan.keyFilter(), this, [this, pass, paced, covers, count](const RedisResult& r) {
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
            const RedisReply& page = r.reply.elements[1];
            ++m_passPages;
            // The plan's filter left the other keys out as the page was parsed: they count as seen.
            const qsizetype returned = page.elements.size() + page.keysLeftOut();
            m_passKeysSeen += returned;
            if (covers && !ScanPlan::coverPays(returned, count))
                m_passCovers = false;
            if (const QString broken = scanBroken(next); !broken.isEmpty())
                return failPass(broken);
            QByteArrayList keys;
            keys.reserve(page.elements.size());
            const auto keyAt = [&page](qsizetype i) -> const QByteArray& { return page.elements[i].string; };
            m_keys.lookUpAll(page.elements.size(), keyAt, [&](qsizetype i, quint32 hash) {
                if (!page.elements[i].isString())
                    return; // a key is a bulk string; anything else is no key (a broken peer's)
                // The table's copy goes on: with a pool, the bytes the other masters' tables hold.
                const ScanKeyTable::Stored entry = m_keys.insert(keyAt(i), hash, false);
                if (entry.mark.metInPass != m_pass) {
                    entry.mark.metInPass = m_pass;
                    keys << entry.key;
                }
            });
            if (next == "0")
                m_scansDone = true;
            else if (!paced)
                nextPage(next); // asked before reading this page: the pipeline stays full
            const double fraction = next == "0" ? 1.0 : ScanBound::fraction(next);
            emit scanProgress(qint64(fraction * double(m_dbSize)), m_dbSize);
            if (paced) {
                readPage(keys, 0, next);
                return;
            }
            readKeys(keys, true);
            maybeFinishPass();
        });
}

namespace {
// Keys a worker may have on their way to the monitor before its pass waits (a few MB), and how few
// there must be again before it goes on: room for several pages, so that the pipeline stays full.
// Not fewer: at 4 pages the window's peak was 6 MiB lower and its CPU to the first view 8 % higher
// (100k locks on five masters, five pairs): a monitor that keeps up takes in smaller helpings.
qint64 maxUndelivered(const MonitorSettings& settings)
{
    return 16 * qint64(qMax(1000, settings.scanCount));
}
} // namespace

void ScanWorker::continuePass(const QByteArray& cursor)
{
    if (m_undelivered > maxUndelivered(m_settings)) {
        m_heldPage = {m_pass, cursor};
        return;
    }
    scanPage(cursor);
}

void ScanWorker::delivered(qint64 keys)
{
    m_undelivered -= keys;
    if (m_heldPage.pass != 0 && m_undelivered <= maxUndelivered(m_settings) / 2) {
        const HeldPage page = std::exchange(m_heldPage, HeldPage());
        // An aborted pass's page stays unasked; so does one whose connection went meanwhile.
        if (page.pass == m_pass && m_scanning && canScan())
            scanPage(page.cursor);
    }
    resumeEventReads();
}

void ScanWorker::nextPage(const QByteArray& next)
{
    if (next != "0")
        continuePass(next);
}

void ScanWorker::readPage(const QByteArrayList& keys, qsizetype offset, const QByteArray& next)
{
    if (offset < keys.size()) {
        const qsizetype batch = m_pacer.readBatch();
        readKeys(keys.mid(offset, batch), true,
                 [this, keys, offset, batch, next] { readPage(keys, offset + batch, next); });
        return;
    }
    m_pacer.pageDone(int(keys.size()), (monotonicNs() - m_pageStartNs) / 1000);
    if (m_scansDone) {
        maybeFinishPass();
        return;
    }
    // The timer counts milliseconds: shorter pauses add up until a whole one is due.
    m_pauseDebtUs += m_pacer.pauseUs();
    const qint64 pauseMs = m_pauseDebtUs / 1000;
    m_pauseDebtUs -= pauseMs * 1000;
    if (pauseMs == 0) {
        nextPage(next);
        return;
    }
    m_pendingCursor = next;
    m_pageTimer->start(int(pauseMs));
}

QString ScanWorker::scanBroken(const QByteArray& cursor) const
{
    // COUNT: the least this pass asked for (a paced pass shrinks it), which allows the most pages.
    return ScanBound::broken(cursor, m_passPages, m_passKeysSeen, m_dbSizeKnown ? m_dbSize : -1,
                             m_passLeastCount);
}

void ScanWorker::failPass(const QString& reason)
{
    // The master counts as one that cannot be scanned (the monitor shows it unknown with `reason`);
    // a later pass is tried at the polling interval and, once one finishes, the mode is read again.
    abortPass();
    stopSubscriber();
    m_scanFailed = true;
    setMode(NotificationMode::Unknown, reason);
    m_passTimer->start(m_settings.pollIntervalMs);
}

void ScanWorker::readKeys(const QByteArrayList& keys, bool fromPass, std::function<void()> after,
                          std::function<void()> done)
{
    if (keys.isEmpty()) {
        if (after)
            after();
        if (done)
            done();
        return;
    }
    const quint32 pass = m_pass;
    if (fromPass)
        ++m_readsInFlight;
    const quint64 read = m_readOrder.issue();
    KeyReader::read(
        m_connection.get(), keys, m_settings,
        [this, keys, pass, fromPass, read, after = std::move(after), done = std::move(done),
         guard = QPointer<ScanWorker>(this)](QList<KeyObservation> obs) {
            if (!guard)
                return;
            if (fromPass && pass == m_pass)
                --m_readsInFlight;
            auto batch = std::make_shared<ObservationBatch>();
            batch->steps.reserve(keys.size());
            batch->hashes.reserve(keys.size());
            bool any = false;
            const auto keyAt = [&keys](qsizetype i) -> const QByteArray& { return keys.at(i); };
            m_keys.lookUpAll(keys.size(), keyAt, [&](qsizetype i, quint32 hash) {
                const KeyObservation& o = obs.at(i);
                ObservationBatch::Step step = ObservationBatch::Step::Skip;
                if (o.error.isError() || m_readOrder.isStale(read, keys.at(i))) {
                    // the master-level state says why, or a newer reading is in: keep what we knew
                } else if (o.present) {
                    ScanKeyTable::Mark& mark = m_keys.insert(keys.at(i), hash, false).mark;
                    if (!mark.known) {
                        mark.known = true;
                        ++m_knownCount;
                    }
                    step = ObservationBatch::Step::Observe;
                } else if (ScanKeyTable::Mark* mark = m_keys.find(keys.at(i), hash); mark && mark->known) {
                    mark->known = false; // the entry itself goes at the pass end
                    --m_knownCount;
                    step = ObservationBatch::Step::Remove;
                }
                any = any || step != ObservationBatch::Step::Skip;
                batch->steps << step;
                batch->hashes << hash;
            });
            m_readOrder.delivered(read, keys);
            if (any) {
                batch->keys = keys;
                batch->observations = std::move(obs);
                batch->knownKeys = m_knownCount;
                m_undelivered += batch->keys.size();
                emit observed(batch);
            }
            if (after && pass == m_pass)
                after(); // may read on (another batch in flight) before the pass is judged finished
            if (fromPass && pass == m_pass)
                maybeFinishPass();
            if (done)
                done();
        });
}

void ScanWorker::maybeFinishPass()
{
    if (!m_scanning || !m_scansDone || m_readsInFlight > 0)
        return;
    // Every key present for the whole pass was returned by SCAN; what we knew and did not meet is gone.
    // Keys met but not present (deleted between SCAN and the read) are forgotten too.
    auto batch = std::make_shared<ObservationBatch>();
    m_keys.sweep([this, &batch](const QByteArray& key, ScanKeyTable::Mark& mark) {
        if (mark.known && mark.metInPass != m_pass) {
            batch->keys << key;
            batch->steps << ObservationBatch::Step::Remove;
            --m_knownCount;
            mark.known = false;
        }
        return mark.known; // a waiting key's entry stays as well, until it is taken
    });
    if (!batch->keys.isEmpty()) {
        batch->knownKeys = m_knownCount;
        m_undelivered += batch->keys.size();
        emit observed(batch);
    }
    setScanning(false);
    m_firstPass = false;
    emit scanProgress(m_dbSize, m_dbSize);
    emit passFinished(m_knownCount);
    if (m_scanFailed) {
        m_scanFailed = false;
        detectMode(); // the failed pass left the mode unknown
    }
    m_awaitingDelivery = true; // passDelivered() goes on
}

void ScanWorker::onEvent(const QByteArray& key, const QByteArray& payload, qint64 ranAfterMs)
{
    // The key table's copy: a flood of changes to known locks then makes no copy of a key per event
    // for the keys waiting to be read (a million locks, 48 MB). A key it did not know stays in it
    // until the pass end at least, marked as waiting.
    const ScanKeyTable::Stored entry = m_keys.insertCopy(key);
    if (m_scanning)
        entry.mark.metInPass = m_pass; // a key born mid-pass may be missed by SCAN; the event read covers it
    if (m_eventLogThrottle.pass(payload, monotonicMs())) {
        m_eventLogKeys << entry.key;
        m_eventLogEvents << payload;
        m_eventLogRanAfter << ranAfterMs;
    }
    m_eventKeys.push(entry);
    if (!m_eventTimer->isActive())
        m_eventTimer->start();
}

void ScanWorker::flushEvents()
{
    if (const qint64 skipped = m_eventLogThrottle.takeSkipped(); !m_eventLogKeys.isEmpty() || skipped > 0) {
        // Handed over, not cleared: the queued signal still shares the lists, and clear() on a
        // shared list allocates a new one as large as the old (a burst of 200k events/s made each
        // flush allocate for the largest burst ever seen, twice).
        emit keyspaceEvents(std::exchange(m_eventLogKeys, {}), std::exchange(m_eventLogEvents, {}),
                            std::exchange(m_eventLogRanAfter, {}), skipped);
    }
    if (m_eventKeys.isEmpty() || !canScan() || eventReadsHeld())
        return;
    // A slice at a time, a few in flight: keys changing faster than they can be read wait here,
    // each once however often it changes, not as reads and replies piling up (a writer changing
    // 200k TTLs a second queued hundreds of MB of them).
    const QByteArrayList keys = m_eventKeys.take(maxEventKeysPerRead);
    ++m_eventReadsInFlight;
    readKeys(keys, false, {}, [this, serial = m_connectionSerial] {
        if (serial != m_connectionSerial)
            return;
        --m_eventReadsInFlight;
        resumeEventReads();
    });
}

void ScanWorker::resumeEventReads()
{
    if (!m_eventKeys.isEmpty() && !eventReadsHeld() && !m_eventTimer->isActive())
        m_eventTimer->start();
}

bool ScanWorker::eventReadsHeld() const
{
    // A pass waiting for the monitor goes first: keys that change all the time (a writer touching
    // 200k a second) would otherwise take every read the monitor can take in, and the pass, held
    // until they are taken in, would never end.
    return m_eventReadsInFlight >= maxEventReadsInFlight || m_heldPage.pass != 0 ||
           m_undelivered > maxUndelivered(m_settings);
}

} // namespace lockscope
