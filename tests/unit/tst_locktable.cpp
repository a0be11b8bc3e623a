// SPDX-License-Identifier: Apache-2.0
// The monitor's one table of resources: read from outside as the views shown, entries not shown
// yet skipped, and the count of shown views kept as views come and go.
#include "monitor/locktable.h"
#include "support/heldview.h"
#include "support/testregistry.h"

#include <QSet>
#include <QTest>

namespace tst_locktable {

using namespace lockscope;
using lockscope::test::heldView;

namespace {

QSet<QByteArray> shownNames(const LockTable& table)
{
    QSet<QByteArray> names;
    for (auto it = table.begin(); it != table.end(); ++it)
        names.insert(it.key() == it->resource ? it.key() : "<another's view>");
    return names;
}

} // namespace

class TestLockTable : public QObject
{
    Q_OBJECT

private slots:
    void entriesNotShownAreNotLocks();
    void showingAgainReplacesTheView();
    void erasingAShownEntryCountsIt();
    void aRandomHistoryKeepsTheCount();
};

void TestLockTable::entriesNotShownAreNotLocks()
{
    LockTable table;
    // Read on some master, waiting for the others: an entry without a view.
    table.entries()["lock:waiting"];
    table.insert("lock:a", SharedLockView(heldView("lock:a", "t1")));
    table.entries()["lock:also-waiting"];
    table.insert("lock:b", SharedLockView(heldView("lock:b", "t2")));

    QCOMPARE(table.entries().size(), 4);
    QCOMPARE(table.size(), 2);
    QCOMPARE(shownNames(table), (QSet<QByteArray>{"lock:a", "lock:b"}));
    QVERIFY(table.contains("lock:a"));
    QVERIFY(!table.contains("lock:waiting"));
    QVERIFY(!table.contains("lock:none"));
    QVERIFY(!table.find("lock:waiting"));
    QCOMPARE((*table.find("lock:b"))->token, QByteArray("t2"));
    QCOMPARE(table.value("lock:a")->token, QByteArray("t1"));
    QVERIFY(table.value("lock:waiting").isNull());
    QVERIFY(table.value("lock:waiting")->resource.isEmpty()); // the empty view

    // Only waiting entries: nothing to walk.
    LockTable waiting;
    waiting.entries()["x"];
    waiting.entries()["y"];
    QVERIFY(waiting.begin() == waiting.end());
    QVERIFY(waiting.isEmpty());
}

void TestLockTable::showingAgainReplacesTheView()
{
    LockTable table;
    LockEntry& entry = table.entries()["lock:a"];
    table.show(entry, SharedLockView(heldView("lock:a", "t1")));
    const SharedLockView first = entry.view();
    table.show(entry, SharedLockView(heldView("lock:a", "t2")));
    QCOMPARE(table.size(), 1);
    QCOMPARE(table.value("lock:a")->token, QByteArray("t2"));
    QCOMPARE(first->token, QByteArray("t1")); // whoever kept the shown version keeps it
    table.show(entry, SharedLockView());      // hidden again
    QCOMPARE(table.size(), 0);
    QCOMPARE(table.entries().size(), 1);
}

void TestLockTable::erasingAShownEntryCountsIt()
{
    LockTable table;
    table.insert("a", SharedLockView(heldView("a", "t")));
    table.insert("b", SharedLockView(heldView("b", "t")));
    table.entries()["c"];
    table.erase(table.entries().find("a"));
    QCOMPARE(table.size(), 1);
    table.erase(table.entries().find("c"));
    QCOMPARE(table.size(), 1);
    table.remove("b");
    table.remove("nothing");
    QCOMPARE(table.size(), 0);
    QVERIFY(table.entries().isEmpty());
}

void TestLockTable::aRandomHistoryKeepsTheCount()
{
    LockTable table;
    QSet<QByteArray> shown;
    QSet<QByteArray> known;
    quint32 seed = 7;
    const auto next = [&seed](quint32 n) {
        seed = seed * 1664525u + 1013904223u;
        return (seed >> 8) % n;
    };
    for (int step = 0; step < 5000; ++step) {
        const QByteArray r = "r" + QByteArray::number(next(40));
        switch (next(4)) {
        case 0: // read, not shown yet
            table.entries()[r];
            known.insert(r);
            break;
        case 1: // shown (again)
            table.insert(r, SharedLockView(heldView(r, QByteArray::number(step))));
            known.insert(r);
            shown.insert(r);
            break;
        case 2: // gone
            if (const auto it = table.entries().find(r); it != table.entries().end())
                table.erase(it);
            known.remove(r);
            shown.remove(r);
            break;
        default: // hidden, still known
            if (const auto it = table.entries().find(r); it != table.entries().end())
                table.show(*it, SharedLockView());
            shown.remove(r);
            break;
        }
        QCOMPARE(table.size(), shown.size());
    }
    QCOMPARE(shownNames(table), shown);
    QCOMPARE(table.entries().size(), known.size());
}

LOCKSCOPE_TEST_MAIN(TestLockTable)

} // namespace tst_locktable

#include "tst_locktable.moc"
