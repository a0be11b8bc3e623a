// SPDX-License-Identifier: Apache-2.0
#include "support/timebound.h"

#include <QByteArray>
#include <QFile>
#include <QThread>

#include <algorithm>
#include <cmath>

// LOCKSCOPE_SANITIZED: the sanitizer build, whose tests are not instrumented themselves (the top
// CMakeLists.txt) but call instrumented code.
#if defined(LOCKSCOPE_SANITIZED) || defined(__SANITIZE_ADDRESS__)
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
    // "0.52 0.58 0.59 3/412 12345": the 1-minute average lags a minute behind a burst (ctest -j2
    // starting a heavy test beside this one), so the processes runnable right now count too, less
    // this one.
    const QList<QByteArray> fields = loadavg.readLine().split(' ');
    bool ok = false;
    double load = fields.value(0).toDouble(&ok);
    if (!ok)
        return 1.0;
    const double runnableNow = fields.value(3).split('/').value(0).toDouble() - 1.0;
    load = std::max(load, runnableNow);
    const int cores = std::max(1, QThread::idealThreadCount());
    return std::max(1.0, load / cores);
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
