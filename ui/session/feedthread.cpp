// SPDX-License-Identifier: Apache-2.0
#include "session/feedthread.h"

namespace lockscope {

void FeedThread::stop()
{
    if (!m_feed)
        return;
    QMetaObject::invokeMethod(
        m_feed,
        [feed = m_feed, stop = m_stop] {
            stop();
            feed->moveToThread(nullptr);
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
    delete m_feed;
    m_feed = nullptr;
}

} // namespace lockscope
