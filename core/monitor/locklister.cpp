// SPDX-License-Identifier: Apache-2.0
#include "monitor/locklister.h"

#include "base/monotonicclock.h"
#include "discovery/commandcountprobe.h"
#include "discovery/keyreader.h"
#include "discovery/scanbound.h"
#include "formats/lockformatrecognizer.h"
#include "monitor/quorumcalculator.h"
#include "topology/masterset.h"

#include <QDateTime>
#include <QPointer>
#include <QTimer>

#include <algorithm>

namespace lockscope {

LockLister::LockLister(MasterSet* masters, LockScopeConfig config, PageSink sink, QObject* parent)
    : QObject(parent), m_masters(masters), m_config(std::move(config)), m_scope(m_config.monitor.patterns),
      m_plan(m_config.monitor.patterns), m_sink(std::move(sink)),
      m_pacer(m_config.monitor.scanRate, m_config.monitor.scanCount), m_pauseTimer(new QTimer(this))
{
    m_pauseTimer->setSingleShot(true);
    connect(m_pauseTimer, &QTimer::timeout, this, [this] {
        m_scanOut = false;
        m_paused = true;
        scanNext();
    });
}

LockLister::~LockLister()
{
    for (const std::unique_ptr<RedisConnection>& c : m_scanConnections)
        if (c)
            c->disconnect(this);
}

bool LockLister::canList(const MasterSet& masters)
{
    for (int i = 0; i < masters.size(); ++i)
        if (masters.isCluster(i))
            return false;
    return true;
}

void LockLister::start()
{
    const int n = m_masters->size();
    m_modes = QList<NotificationMode>(n, NotificationMode::Unknown);
    m_settled = QList<bool>(n, true);
    m_scanConnections.resize(n);
    for (int i = 0; i < n; ++i) {
        const RedisConnection* master = m_masters->at(i);
        if (!master->isUp())
            continue;
        // A connection of its own, as the monitor's scan has: the master connection keeps its health
        // checks, and a master that takes no second connection (maxclients) shows why it is not read.
        ConnectionOptions options = master->options();
        options.clientName = "lockscope-scan";
        options.healthIntervalMs = 0;
        options.autoReconnect = false;
        m_scanConnections[i] = std::make_unique<RedisConnection>(options);
        m_settled[i] = false;
        connect(m_scanConnections[i].get(), &RedisConnection::stateChanged, this,
                [this, i] { onScanConnectionState(i); });
        m_scanConnections[i]->open();
    }
    m_started = true;
    if (!m_settled.contains(false))
        beginScanning();
}

void LockLister::onScanConnectionState(int master)
{
    RedisConnection* c = m_scanConnections[master].get();
    if (c->isUp() && !m_settled[master]) {
        m_settled[master] = true;
        c->send({"CONFIG", "GET", "notify-keyspace-events"}, this, [this, master](const RedisResult& r) {
            if (!r.ok())
                return;
            // As the monitor's scanner would say it once its subscriber is in: live when the server
            // publishes what LockScope needs, polling otherwise.
            m_modes[master] = notificationConfigProblem(r.reply).isEmpty() ? NotificationMode::Live
                                                                           : NotificationMode::Polling;
        });
    } else if (!c->isUp() && c->state() != RedisConnection::State::Connecting) {
        // Not read, not shown as holding nothing: its part of every row is unknown, with the reason.
        m_modes[master] = NotificationMode::Unknown;
        if (m_masters->at(master)->isUp())
            m_masters->at(master)->holdDown(
                RedisError(ErrorKind::ConnectionLost, m_masters->at(master)->name(),
                           QStringLiteral("cannot scan: %1").arg(c->lastError().message)));
        m_settled[master] = true;
    } else {
        return;
    }
    if (m_master < 0 && !m_settled.contains(false))
        beginScanning();
}

void LockLister::beginScanning()
{
    if (m_master >= 0)
        return;
    nextMaster();
}

bool LockLister::readable(int master) const
{
    const RedisConnection* c = m_scanConnections[master].get();
    return c && c->isUp() && m_masters->at(master)->isUp();
}

void LockLister::nextMaster()
{
    m_masterDone = true;
    do
        ++m_master;
    while (m_master < m_masters->size() && !readable(m_master));
    if (m_master >= m_masters->size()) {
        maybeFinish();
        return;
    }
    m_masterDone = false;
    m_cursor = "0";
    m_dbSize = -1;
    m_masterPages = 0;
    m_masterKeys = 0;
    m_masterCovers = true;
    m_leastCount = m_config.monitor.scanCount;
    m_pacer.beginPass(true); // a connection's first pass: `max` runs it unpaced
    m_pauseDebtUs = 0;
    const int master = m_master;
    m_scanConnections[master]->send({"DBSIZE"}, this, [this, master](const RedisResult& r) {
        if (master == m_master && r.ok() && r.reply.isInteger())
            m_dbSize = r.reply.integer;
    });
    scanNext();
}

LockLister::ScanStep LockLister::nextStep()
{
    // Unpaced (--scan-rate max): the configured COUNT, no pause, and four pages read at once: enough
    // to keep every server busy while this thread decodes, few enough that memory stays a few
    // pages' worth. Paced: one page at a time, as the pacer says (ScanPacer's page loop).
    if (!m_pacer.paced())
        return {m_pacer.count(), 0, 4, 0};
    // What this thread spent since the page was read (handing its locks on: the recognising, the
    // JSON) was time the server had to itself already: it counts towards the pause.
    m_pauseDebtUs -= qBound<qint64>(0, monotonicNs() / 1000 - m_pageReadUs, m_pauseDebtUs);
    m_pageReadUs = monotonicNs() / 1000;
    // The timer counts milliseconds: shorter pauses add up until a whole one is due.
    const qint64 pauseMs = m_pauseDebtUs / 1000;
    m_pauseDebtUs -= pauseMs * 1000;
    return {m_pacer.count(), int(pauseMs), 1, m_pacer.readBatch()};
}

void LockLister::pageRead(int keys, qint64 elapsedUs)
{
    if (!m_pacer.paced())
        return;
    m_pacer.pageDone(keys, elapsedUs);
    m_pauseDebtUs += m_pacer.pauseUs();
    m_pageReadUs = monotonicNs() / 1000;
}

void LockLister::setHeld(bool held)
{
    m_held = held;
    if (!held)
        scanNext();
}

void LockLister::scanNext()
{
    if (m_masterDone || m_scanOut || m_held || m_pages.size() >= m_pagesAhead ||
        m_master >= m_masters->size())
        return;
    const ScanStep step = nextStep();
    m_pagesAhead = qMax<size_t>(1, step.pagesAhead);
    if (step.pauseMs > 0 && !m_paused) {
        m_scanOut = true; // taken by the pause; the timer asks again
        m_pauseTimer->start(step.pauseMs);
        return;
    }
    m_paused = false;
    m_scanOut = true;
    m_scanSentUs = monotonicNs() / 1000;
    m_readBatch = step.readBatch;
    m_leastCount = qMin(m_leastCount, step.count);
    m_scanCount = step.count;
    if (m_pacer.wantsProbe()) {
        // Alone on the connection, answered before the page is asked for: its round trip is what any
        // client's trivial command waits right now. (Sent with the SCAN, its reply would wait for
        // the page's own work and measure our COUNT, not the server.)
        const int master = m_master;
        const qint64 sentUs = m_scanSentUs;
        m_scanConnections[master]->send({"PING"}, this, [this, master, sentUs](const RedisResult& r) {
            if (master != m_master)
                return; // the scan of that master was given up
            if (r.ok() && !r.reply.isError())
                m_pacer.probed(monotonicNs() / 1000 - sentUs);
            sendScan();
        });
        return;
    }
    sendScan();
}

void LockLister::sendScan()
{
    const int master = m_master;
    CommandCountProbe::sendIfDue(m_scanConnections[master].get(), &m_pacer, this);
    const bool covers = m_masterCovers;
    const int count = m_scanCount;
    m_scanConnections[master]->sendScanPage(m_plan.scanCommand(m_cursor, count, covers), m_plan.keyFilter(),
                                            this, [this, master, covers, count](const RedisResult& r) {
                                                if (master != m_master)
                                                    return; // the scan of that master was given up
                                                m_scanOut = false;
                                                onScanReply(r, covers, count);
                                            });
}

void LockLister::onScanReply(const RedisResult& r, bool covered, int count)
{
    if (!r.ok()) {
        failMaster(m_scanConnections[m_master]->lastError().isError()
                       ? m_scanConnections[m_master]->lastError().message
                       : r.error.message);
        return;
    }
    if (!r.reply.isArray() || r.reply.elements.size() != 2) {
        nextMaster(); // a server error (NOPERM on SCAN) ends the pass, as the monitor's scan does
        return;
    }
    const QByteArray next = r.reply.elements[0].string;
    const QList<RedisReply>& found = r.reply.elements[1].elements;
    // Keys the plan's filter left out as the page was parsed count as scanned.
    const qint64 seen = found.size() + r.reply.elements[1].keysLeftOut();
    ++m_masterPages;
    m_masterKeys += seen;
    if (covered && !ScanPlan::coverPays(seen, count))
        m_masterCovers = false;
    m_keysScanned += seen;
    if (const QString broken = ScanBound::broken(next, m_masterPages, m_masterKeys, m_dbSize, m_leastCount);
        !broken.isEmpty()) {
        failMaster(broken);
        return;
    }
    QByteArrayList keys;
    keys.reserve(found.size());
    for (const RedisReply& k : found)
        if (k.isString()) // anything else is no key (a broken peer's)
            keys << k.string;
    if (next != "0")
        m_cursor = next;
    else
        m_masterDone = true;
    if (keys.isEmpty()) {
        pageRead(0, monotonicNs() / 1000 - m_scanSentUs);
        scanNext();
    } else if (m_pacer.paced()) {
        readPage(std::move(keys)); // the next page once this one is read, after the pacer's pause
    } else {
        scanNext(); // asked before this page is read: the server always has the next page to do
        readPage(std::move(keys));
    }
    if (m_masterDone)
        nextMaster();
}

void LockLister::failMaster(const QString& reason)
{
    RedisConnection* master = m_masters->at(m_master);
    if (master->isUp())
        master->holdDown(RedisError(ErrorKind::ConnectionLost, master->name(),
                                    QStringLiteral("cannot scan: %1").arg(reason)));
    m_modes[m_master] = NotificationMode::Unknown;
    m_scanOut = false;
    m_paused = false;
    m_pauseTimer->stop();
    nextMaster();
}

void LockLister::readPage(QByteArrayList keys)
{
    auto page = std::make_shared<Page>();
    page->master = m_master;
    page->scanSentUs = m_scanSentUs;
    page->keys = std::move(keys);
    page->reads.resize(m_masters->size());
    m_pages.push_back(page);
    for (int j = 0; j < m_masters->size(); ++j) {
        if (!readable(j))
            continue;
        ++page->readsOut;
        readBatch(page, j, 0);
    }
    if (page->readsOut == 0)
        deliverReadyPages();
}

void LockLister::readBatch(const std::shared_ptr<Page>& page, int master, qsizetype offset)
{
    // Paced, the keys go in batches, each sent when the previous one is answered (the server serves
    // other clients between two of them); unpaced, all at once.
    const qsizetype batch = m_readBatch > 0 ? m_readBatch : page->keys.size();
    const bool whole = offset == 0 && batch >= page->keys.size();
    KeyReader::read(
        m_scanConnections[master].get(), whole ? page->keys : page->keys.mid(offset, batch), m_config.monitor,
        [this, page, master, offset, batch, guard = QPointer<LockLister>(this)](QList<KeyObservation> read) {
            if (!guard)
                return;
            if (page->reads[master].isEmpty())
                page->reads[master] = std::move(read);
            else
                page->reads[master] << std::move(read);
            if (offset + batch < page->keys.size() && m_scanConnections[master]) {
                readBatch(page, master, offset + batch);
                return;
            }
            if (--page->readsOut == 0)
                deliverReadyPages();
        });
}

void LockLister::deliverReadyPages()
{
    while (!m_pages.empty() && m_pages.front()->readsOut == 0) {
        const std::shared_ptr<Page> page = std::move(m_pages.front());
        m_pages.pop_front();
        pageRead(int(page->keys.size()), monotonicNs() / 1000 - page->scanSentUs);
        emitPage(*page);
    }
    scanNext();
    maybeFinish();
}

void LockLister::emitPage(Page& page)
{
    const int n = m_masters->size();
    // What to show for a master that is not read (down, or its scan connection failed).
    QList<RedisError> down(n);
    for (int j = 0; j < n; ++j) {
        if (!page.reads[j].isEmpty())
            continue;
        const RedisConnection* c = m_masters->at(j);
        down[j] = c->lastError().isError() ? c->lastError()
                                           : RedisError(ErrorKind::NotConnected, c->name(),
                                                        c->isUp() ? QStringLiteral("cannot scan")
                                                                  : RedisConnection::stateName(c->state()));
    }
    const qint64 wallMs = QDateTime::currentMSecsSinceEpoch();
    const qint64 now = monotonicMs();
    QList<LockView> views;
    views.reserve(page.keys.size());
    QList<MasterObservation> observed(n);
    // Sorted by resource through an index: a LockView is a dozen members to move, an int is not.
    std::vector<int> order(size_t(page.keys.size()));
    for (size_t k = 0; k < order.size(); ++k)
        order[k] = int(k);
    std::sort(order.begin(), order.end(),
              [&page](int a, int b) { return page.keys.at(a) < page.keys.at(b); });
    for (const int k : order) {
        const QByteArray& key = page.keys.at(k);
        bool reported = false; // an earlier master holds it: its scan met it and reported the row
        for (int j = 0; j < page.master && !reported; ++j)
            reported = !page.reads[j].isEmpty() && page.reads[j].at(k).present &&
                       !page.reads[j].at(k).error.isError();
        if (reported)
            continue;
        bool any = false;
        for (int j = 0; j < n; ++j) {
            observed[j] = MasterObservation();
            if (page.reads[j].isEmpty()) {
                observed[j].setError(down.at(j));
                continue;
            }
            const KeyObservation& o = page.reads[j].at(k);
            if (o.error.isError()) {
                observed[j].setError(o.error);
                continue;
            }
            if (!o.present)
                continue;
            // The masters of one lock normally hold the same value: decoded once, shared.
            const MasterObservation* same = nullptr;
            for (int q = 0; q < j && !same; ++q)
                if (observed[q].present() && observed[q].sameContent(o) &&
                    observed[q].lock().format != LockFormat::LegacyTimestamp)
                    same = &observed[q];
            MasterObservation m = same ? MasterObservation::sharingContent(*same, o)
                                       : MasterObservation(o, LockFormatRecognizer::recognize(
                                                                  key, o, m_config.ownerRules, wallMs));
            // As the monitor keeps them: helper keys go with their lock, and under a discover
            // pattern only a lock's shape is a lock.
            if (m.lock().auxiliary || !m_scope.isLock(key, m.lock(), o.pttlMs >= 0))
                continue;
            observed[j] = std::move(m);
            any = true;
        }
        if (any)
            views << QuorumCalculator::compute(key, observed, m_config.redlock, now);
    }
    if (!views.isEmpty())
        m_sink(views);
}

void LockLister::maybeFinish()
{
    if (m_finished || !m_started || m_master < m_masters->size() || !m_pages.empty())
        return;
    m_finished = true;
    emit finished();
}

} // namespace lockscope
