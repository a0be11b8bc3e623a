// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QThread>

#include <functional>

namespace lockscope {

// A feed that talks to a database (TeamAuditFeed, TeamRecordingFeed) on a thread of its own, never
// the GUI thread: started there, and stopped there before it is deleted (Qt SQL connections never
// cross threads).
class FeedThread
{
    Q_DISABLE_COPY_MOVE(FeedThread)

public:
    explicit FeedThread(const QString& name) { m_thread.setObjectName(name); }
    ~FeedThread() { stop(); }

    // Takes `feed` (no parent), moves it to the thread and calls its start() there.
    template <typename Feed> void run(Feed* feed)
    {
        stop();
        m_feed = feed;
        m_stop = [feed] { feed->stop(); };
        feed->moveToThread(&m_thread);
        m_thread.start();
        QMetaObject::invokeMethod(
            feed, [feed] { feed->start(); }, Qt::QueuedConnection);
    }
    bool isRunning() const { return m_feed != nullptr; }
    // Stops the feed on its thread and deletes it; a connection to a server that does not answer
    // is left to the driver's connect timeout (the URL's, 5 s by default).
    void stop();

private:
    QThread m_thread;
    QObject* m_feed = nullptr;
    std::function<void()> m_stop;
};

} // namespace lockscope
