// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>
#include <QList>

// The CPU each of the process's threads has used so far, in ms, summed by thread name (the five
// "lockscope-scan" threads as one; the GUI thread as "gui"), from /proc/self/task: where a first
// view's CPU went, read at the moment it is complete.
QJsonObject threadCpuMsByName();

// The CPU the processes `pids` have used so far, in ms, all threads (the benchmark's redis-servers:
// the share of a first view's time that was theirs).
qint64 processesCpuMs(const QList<qint64>& pids);
