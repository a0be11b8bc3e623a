// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QGuiApplication>
#include <QScreen>
#include <QSize>

namespace lockscope::test {

// Whether the application's primary screen has this size (useOffscreenScreen worked). Header-only:
// the support library does not link Qt GUI, the window tests that ask do.
inline bool primaryScreenIs(const QSize& size)
{
    return QGuiApplication::primaryScreen() && QGuiApplication::primaryScreen()->geometry().size() == size;
}

} // namespace lockscope::test
