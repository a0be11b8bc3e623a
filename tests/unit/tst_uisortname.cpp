// SPDX-License-Identifier: Apache-2.0
#include "locks/sortname.h"
#include "support/testregistry.h"

#include <QRandomGenerator>
#include <QTest>

namespace tst_uisortname {

using namespace lockscope;

class TestUiSortName : public QObject
{
    Q_OBJECT

private slots:
    void ordersAsTheBytesDo();
};

// Names of 0 to 40 bytes over a few byte values that include 0x00 and 0xff, most sharing long
// prefixes (equal heads, a name a prefix of another, zero bytes against padding): for every pair,
// SortName's order is the bytes' order (QByteArray's, unsigned).
void TestUiSortName::ordersAsTheBytesDo()
{
    QRandomGenerator rng(23);
    const char alphabet[] = {'\x00', '\x01', 'a', 'b', '\x7f', '\x80', '\xff'};
    QList<QByteArray> names{QByteArray(),
                            QByteArray(1, '\0'),
                            QByteArray(16, '\0'),
                            QByteArray(17, '\0'),
                            "lock:bench:1",
                            "lock:bench:10",
                            "lock:bench:100000000000000000001"};
    for (int i = 0; i < 400; ++i) {
        QByteArray n = i % 3 == 0 ? names.at(int(rng.bounded(int(names.size())))) : QByteArray();
        n.truncate(int(rng.bounded(int(n.size()) + 1)));
        const int extra = int(rng.bounded(24));
        for (int b = 0; b < extra; ++b)
            n.append(alphabet[rng.bounded(int(sizeof alphabet))]);
        names << n;
    }
    for (const QByteArray& a : std::as_const(names))
        for (const QByteArray& b : std::as_const(names)) {
            const bool sorted = SortName(a) < SortName(b);
            if (sorted != (a < b))
                QFAIL(qPrintable(QStringLiteral("%1 < %2: %3")
                                     .arg(QString::fromLatin1(a.toHex()), QString::fromLatin1(b.toHex()),
                                          sorted ? u"true" : u"false")));
        }
}

LOCKSCOPE_TEST_GUILESS_MAIN(TestUiSortName)

} // namespace tst_uisortname

#include "tst_uisortname.moc"
