// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QJsonObject>

// The CPU each of the process's threads has used so far, in ms, summed by thread name (the five
// "lockscope-scan" threads as one; the GUI thread as "gui"), from /proc/self/task: where a first
// view's CPU went, read at the moment it is complete.
QJsonObject threadCpuMsByName();
