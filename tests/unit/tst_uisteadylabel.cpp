// SPDX-License-Identifier: Apache-2.0
#include "support/testregistry.h"
#include "widgets/steadylabel.h"
#include "window/windowstatusbar.h"

#include <QApplication>
#include <QMainWindow>
#include <QStatusBar>
#include <QTest>

namespace tst_uisteadylabel {

using namespace lockscope;

namespace {

// Counts the layout requests a widget gets: each is a layout of everything in it.
class LayoutRequests : public QObject
{
public:
    explicit LayoutRequests(QWidget* watched) { watched->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        count += event->type() == QEvent::LayoutRequest ? 1 : 0;
        return false;
    }
};

// Posted events, and those they post (a label's layout request posts its parent's).
void settle()
{
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
}

// A main window with a central widget and, in its status bar, `label`; shown and laid out.
std::unique_ptr<QMainWindow> windowWith(QWidget* label)
{
    auto window = std::make_unique<QMainWindow>();
    window->setCentralWidget(new QWidget);
    window->statusBar()->addWidget(label);
    window->resize(900, 300);
    window->show();
    settle(); // the window's first layouts: a layout request after this is one we caused
    return window;
}

} // namespace

// The status bar's lock counts change with every batch of locks the window takes in. A QLabel's new
// text made the main window lay out again and repaint all of it, table and scroll bars included
// (ui-bench: about one full repaint per table slice while the locks arrive, #19 part 2).
class TestUiSteadyLabel : public QObject
{
    Q_OBJECT

private slots:
    void newTextThatFitsDoesNotLayOutTheWindow();
    void growsToShowALongerText();
    void refitsToANewFont();
    void statusBarCountsAreSteadyLabels();
};

void TestUiSteadyLabel::newTextThatFitsDoesNotLayOutTheWindow()
{
    auto* steady = new SteadyLabel;
    steady->setSteadyText(QStringLiteral("1000 locks · 990 held · 10 stuck"));
    const auto window = windowWith(steady);
    LayoutRequests requests(window.get());
    for (int n = 1001; n < 1100; ++n) {
        steady->setSteadyText(QStringLiteral("%1 locks · %2 held · 10 stuck").arg(n).arg(n - 10));
        settle();
    }
    QCOMPARE(steady->text(), QStringLiteral("1099 locks · 1089 held · 10 stuck"));
    QCOMPARE(requests.count, 0);
    // Shorter texts fit too.
    steady->setSteadyText(QStringLiteral("7 locks"));
    settle();
    QCOMPARE(requests.count, 0);

    // What a plain QLabel does in the same place, so that the count above can tell.
    auto* plain = new QLabel(QStringLiteral("1000 locks"));
    const auto other = windowWith(plain);
    LayoutRequests plainRequests(other.get());
    plain->setText(QStringLiteral("1001 locks"));
    settle();
    QVERIFY(plainRequests.count > 0);
}

void TestUiSteadyLabel::growsToShowALongerText()
{
    auto* steady = new SteadyLabel;
    steady->setSteadyText(QStringLiteral("3 locks"));
    const auto window = windowWith(steady);
    const int before = steady->width();
    const QString longer = QStringLiteral("100000 locks · 99990 held · 4 partial · 3 contested · 3 stuck");
    steady->setSteadyText(longer);
    settle();
    QVERIFY2(steady->width() > before, qPrintable(QString::number(steady->width())));
    QVERIFY(steady->width() >= steady->fontMetrics().horizontalAdvance(longer));
    QCOMPARE(steady->height(), steady->sizeHint().height());
}

void TestUiSteadyLabel::refitsToANewFont()
{
    auto* steady = new SteadyLabel;
    steady->setSteadyText(QStringLiteral("1000 locks · 990 held"));
    const auto window = windowWith(steady);
    QFont big = steady->font();
    big.setPointSizeF(big.pointSizeF() * 2.5);
    steady->setFont(big);
    settle();
    QCOMPARE(steady->height(), steady->sizeHint().height());
    QVERIFY(steady->width() >= steady->fontMetrics().horizontalAdvance(steady->text()));
}

void TestUiSteadyLabel::statusBarCountsAreSteadyLabels()
{
    WindowStatusBar bar;
    QCOMPARE(bar.findChildren<SteadyLabel*>().size(), 2); // the lock counts and the masters up
}

LOCKSCOPE_TEST_MAIN(TestUiSteadyLabel)

} // namespace tst_uisteadylabel

#include "tst_uisteadylabel.moc"
