#include "timebound.h"

#include <QByteArray>
#include <QFile>
#include <QThread>

#include <algorithm>
#include <cmath>

#if defined(__SANITIZE_ADDRESS__)
#define LOCKSCOPE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LOCKSCOPE_TEST_ASAN 1
#endif
#endif

namespace lockscope::test {

namespace {

double loadFactor()
{
    QFile loadavg(QStringLiteral("/proc/loadavg"));
    if (!loadavg.open(QIODevice::ReadOnly))
        return 1.0;
    bool ok = false;
    const double load = loadavg.readLine().split(' ').value(0).toDouble(&ok);
    const int cores = std::max(1, QThread::idealThreadCount());
    return ok ? std::max(1.0, load / cores) : 1.0;
}

} // namespace

double timeScale()
{
#ifdef LOCKSCOPE_TEST_ASAN
    double scale = 4.0;
#else
    double scale = 1.0;
#endif
    scale *= loadFactor();
    bool ok = false;
    const double extra = qEnvironmentVariable("LOCKSCOPE_TIME_SCALE").toDouble(&ok);
    if (ok && extra > 0)
        scale *= extra;
    return std::max(1.0, scale);
}

qint64 upperBoundMs(qint64 ms)
{
    return qint64(std::ceil(double(ms) * timeScale()));
}

} // namespace lockscope::test
