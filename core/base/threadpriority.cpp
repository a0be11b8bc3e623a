// SPDX-License-Identifier: Apache-2.0
#include "base/threadpriority.h"

#include <QtGlobal>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace lockscope {

int ThreadPriority::currentNice()
{
#ifdef Q_OS_LINUX
    const auto tid = id_t(syscall(SYS_gettid));
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, tid);
    return errno == 0 ? nice : 0; // -1 is also a valid nice value: only errno tells a failure apart
#else
    return 0;
#endif
}

void ThreadPriority::lowerTo(int nice)
{
#ifdef Q_OS_LINUX
    const auto tid = id_t(syscall(SYS_gettid));
    if (currentNice() < nice)
        setpriority(PRIO_PROCESS, tid, nice);
#else
    Q_UNUSED(nice)
#endif
}

} // namespace lockscope
