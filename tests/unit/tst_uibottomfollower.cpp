// SPDX-License-Identifier: Apache-2.0
// A view that follows its newest line keeps following through a resize, and leaves a reader who
// scrolled up where they are: the demo's commentary (a plain-text view that drops its oldest line
// as it adds one) and the event log (a table whose range grows once it lays out new rows).
#include "eventlog/eventlogdock.h"
#include "eventlog/eventlogmodel.h"
#include "support/testregistry.h"
#include "widgets/bottomfollower.h"

#include <QApplication>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTest>
#include <QTextBlock>

namespace tst_uibottomfollower {

using namespace lockscope;

class TestUiBottomFollower : public QObject
{
    Q_OBJECT

private slots:
    void commentaryFollowsThroughResizes();
    void commentaryLeavesAReaderWhereTheyAre();
    void eventLogFollowsThroughResizes();
    void eventLogLeavesAReaderWhereTheyAre();
};

namespace {

void settle()
{
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
}

bool atBottom(const QAbstractScrollArea& area)
{
    const QScrollBar* bar = area.verticalScrollBar();
    return bar->maximum() > 0 && bar->value() == bar->maximum();
}

QString barText(const QAbstractScrollArea& area)
{
    const QScrollBar* bar = area.verticalScrollBar();
    return QStringLiteral("value %1 of %2").arg(bar->value()).arg(bar->maximum());
}

// A commentary as the demo panel has one: 200 lines kept, each entry followed by follow().
struct Commentary
{
    Commentary()
    {
        edit.setMaximumBlockCount(200);
        edit.setLineWrapMode(QPlainTextEdit::NoWrap);
        edit.setReadOnly(true);
        edit.resize(300, 12 * edit.fontMetrics().lineSpacing());
        edit.show();
        settle();
    }
    void add(const QString& text)
    {
        edit.appendPlainText(text);
        follower.follow();
    }
    QString topLine() const { return edit.cursorForPosition(QPoint(4, 4)).block().text(); }

    QPlainTextEdit edit;
    BottomFollower follower{&edit};
};

// The event log dock, shown, with 100 entries laid out.
struct EventLog
{
    EventLog()
    {
        dock.resize(600, 300);
        dock.show();
        for (int i = 0; i < 100; ++i)
            add(QStringLiteral("entry %1").arg(i));
        settle();
    }
    void add(const QString& text) { events.add(EventLogModel::Kind::Action, QStringLiteral("test"), text); }
    const QTableView& view() const { return *dock.view(); }

    EventLogModel events{1000};
    EventLogDock dock{&events};
};

} // namespace

void TestUiBottomFollower::commentaryFollowsThroughResizes()
{
    Commentary c;
    for (int i = 0; i < 300; ++i)
        c.add(QStringLiteral("entry %1").arg(i));
    QVERIFY2(atBottom(c.edit), qPrintable(barText(c.edit)));
    // Shorter (a window made smaller, a panel laid out again): the bottom moves down, the view
    // goes with it, and the next entry is followed too.
    for (int lines : {6, 9, 4, 14}) {
        c.edit.resize(300, lines * c.edit.fontMetrics().lineSpacing());
        settle();
        QVERIFY2(atBottom(c.edit),
                 qPrintable(QStringLiteral("%1 lines: %2").arg(lines).arg(barText(c.edit))));
        c.add(QStringLiteral("after %1").arg(lines));
        QVERIFY2(atBottom(c.edit),
                 qPrintable(QStringLiteral("%1 lines: %2").arg(lines).arg(barText(c.edit))));
    }
    QVERIFY(c.follower.isFollowing());
}

void TestUiBottomFollower::commentaryLeavesAReaderWhereTheyAre()
{
    Commentary c;
    for (int i = 0; i < 300; ++i)
        c.add(QStringLiteral("entry %1").arg(i));
    QScrollBar* bar = c.edit.verticalScrollBar();
    bar->setValue(bar->maximum() / 2);
    QVERIFY(!c.follower.isFollowing());
    const QString reading = c.topLine();
    for (int i = 0; i < 20; ++i)
        c.add(QStringLiteral("later %1").arg(i));
    QCOMPARE(c.topLine(), reading); // the same text in view as the oldest lines go
    c.edit.resize(300, 6 * c.edit.fontMetrics().lineSpacing());
    settle();
    QCOMPARE(c.topLine(), reading);
    QVERIFY(bar->value() < bar->maximum());
    // Back at the bottom: following again.
    bar->setValue(bar->maximum());
    c.add(QStringLiteral("last"));
    QVERIFY2(atBottom(c.edit), qPrintable(barText(c.edit)));
}

void TestUiBottomFollower::eventLogFollowsThroughResizes()
{
    EventLog log;
    QVERIFY2(atBottom(log.view()), qPrintable(barText(log.view())));
    for (int height : {200, 350, 150}) {
        log.dock.resize(600, height);
        settle();
        QVERIFY2(atBottom(log.view()),
                 qPrintable(QStringLiteral("%1 px: %2").arg(height).arg(barText(log.view()))));
        log.add(QStringLiteral("after %1").arg(height));
        settle();
        QVERIFY2(atBottom(log.view()),
                 qPrintable(QStringLiteral("%1 px: %2").arg(height).arg(barText(log.view()))));
    }
}

void TestUiBottomFollower::eventLogLeavesAReaderWhereTheyAre()
{
    EventLog log;
    QScrollBar* bar = log.view().verticalScrollBar();
    bar->setValue(10);
    for (int i = 0; i < 20; ++i)
        log.add(QStringLiteral("later %1").arg(i));
    settle();
    QCOMPARE(bar->value(), 10);
    bar->setValue(bar->maximum());
    log.add(QStringLiteral("last"));
    settle();
    QVERIFY2(atBottom(log.view()), qPrintable(barText(log.view())));
}

LOCKSCOPE_TEST_MAIN(TestUiBottomFollower)

} // namespace tst_uibottomfollower

#include "tst_uibottomfollower.moc"
