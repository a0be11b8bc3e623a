// SPDX-License-Identifier: Apache-2.0
#include "support/randomlockbatch.h"

#include "support/heldview.h"

#include <QSet>

namespace lockscope::test {

LockBatch randomLockBatch(QRandomGenerator& rng, LockTable& views)
{
    LockBatch batch;
    QSet<QByteArray> named;
    for (int n = int(rng.bounded(6)); n > 0; --n) {
        const QByteArray r = "r" + QByteArray::number(rng.bounded(12));
        if (named.contains(r))
            continue;
        named.insert(r);
        const SharedLockView v(heldView(r, "t" + QByteArray::number(rng.bounded(1000))));
        if (!views.contains(r)) {
            batch.added << v;
            views.insert(r, v);
        } else if (rng.bounded(3) == 0) {
            batch.removed << r;
            views.remove(r);
        } else {
            batch.changed << v;
            views.insert(r, v);
        }
    }
    return batch;
}

} // namespace lockscope::test
