// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace lockscope {

// Redis's own glob matching (stringmatchlen in util.c: * ? [abc] [^a] [a-z] \x, byte by byte, case
// sensitive), so that a key is judged by a pattern exactly as SCAN MATCH and PSUBSCRIBE judged it.
namespace KeyGlob {

bool matches(const QByteArray& pattern, QByteArrayView key);
// The pattern that matches `key` alone: its * ? [ ] and \ escaped.
QByteArray literal(QByteArrayView key);

} // namespace KeyGlob

} // namespace lockscope
