// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

namespace lockscope {

// Whether a SCAN pass can go on after a page that answered `cursor`: empty while it can, else why
// not (a cursor that is no number, or far more pages than the keyspace allows: a broken or hostile
// server answering non-zero cursors forever). Shared by the monitor's scans and `lockctl list`.
namespace ScanBound {

// `pages` and `keysSeen`: the pass's pages so far and the keys they returned; `dbSize`: DBSIZE,
// -1 when unknown (an ACL may refuse it); `count`: SCAN COUNT. A pass is one SCAN run (ScanPlan).
QString broken(const QByteArray& cursor, qint64 pages, qint64 keysSeen, qint64 dbSize, int count);

// How much of the keyspace a pass has covered (0 to 1) when SCAN answered `cursor`.
double fraction(const QByteArray& cursor);

} // namespace ScanBound

} // namespace lockscope
