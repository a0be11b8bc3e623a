// SPDX-License-Identifier: Apache-2.0
// Nothing from a server reaches the window raw (#14): a key, a token and an owner holding ESC, CR,
// BEL, NUL and a right-to-left override, and a server whose error text holds them, show escaped in
// the locks table (text and tooltips), the detail pane, the event log, the masters panel and the
// force-release dialog; labels that quote them never take them for rich text.
#include "base/bytesdisplay.h"
#include "connections/connectioneditor.h"
#include "detail/lockdetailpane.h"
#include "eventlog/eventlogmodel.h"
#include "locks/locktablemodel.h"
#include "locks/locktableview.h"
#include "masters/mastertablemodel.h"
#include "support/fakeredispeer.h"
#include "support/quickconfig.h"
#include "support/rawtext.h"
#include "support/redisservergroup.h"
#include "support/testregistry.h"
#include "window/mainwindow.h"
#include "writes/forcereleasedialog.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

namespace tst_uiescaping {

using namespace lockscope;
using namespace lockscope::test;

namespace {

// A key and an owner that a label would take for rich text, were it left to guess.
const QByteArray richKey = "<b>lock</b><img src=\"x\">";
const QByteArray richToken = "<i>root</i>\xe2\x80\xae"
                             "evil/00112233445566778899aabbccddeeff";

LockScopeConfig configFor(const QList<ConnectionOptions>& masters)
{
    LockScopeConfig config = quickConfig(masters);
    OwnerRule rule;
    rule.pattern = QRegularExpression(QStringLiteral("^(?<owner>[\\s\\S]*)/"));
    config.ownerRules << rule;
    return config;
}

// Every cell of a model (tree rows included), as display text and tooltip.
QString rawTextInModel(const QAbstractItemModel* model, const QModelIndex& parent = QModelIndex())
{
    for (int row = 0; row < model->rowCount(parent); ++row) {
        for (int column = 0; column < model->columnCount(parent); ++column) {
            const QModelIndex index = model->index(row, column, parent);
            for (const int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)})
                if (const QString raw = rawTextIn(index.data(role).toString()); !raw.isEmpty())
                    return QStringLiteral("row %1 column %2 role %3: %4")
                        .arg(row)
                        .arg(column)
                        .arg(role)
                        .arg(raw);
        }
        if (const QString raw = rawTextInModel(model, model->index(row, 0, parent)); !raw.isEmpty())
            return raw;
    }
    return {};
}

// A tooltip Qt would render as HTML with the key's or owner's tags in it (rather than show them).
bool rendersTags(const QString& tip)
{
    return Qt::mightBeRichText(tip) &&
           (tip.contains(QLatin1String("<b>")) || tip.contains(QLatin1String("<i>")));
}

QString renderedToolTipIn(const QAbstractItemModel* model, const QModelIndex& parent = QModelIndex())
{
    for (int row = 0; row < model->rowCount(parent); ++row) {
        for (int column = 0; column < model->columnCount(parent); ++column)
            if (const QString tip = model->index(row, column, parent).data(Qt::ToolTipRole).toString();
                rendersTags(tip))
                return tip;
        if (const QString tip = renderedToolTipIn(model, model->index(row, 0, parent)); !tip.isEmpty())
            return tip;
    }
    return {};
}

// Whether some cell shows `text`, as display text or tooltip.
bool modelShows(const QAbstractItemModel* model, const QString& text,
                const QModelIndex& parent = QModelIndex())
{
    for (int row = 0; row < model->rowCount(parent); ++row) {
        for (int column = 0; column < model->columnCount(parent); ++column)
            for (const int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)})
                if (model->index(row, column, parent).data(role).toString().contains(text))
                    return true;
        if (modelShows(model, text, model->index(row, 0, parent)))
            return true;
    }
    return false;
}

// Every label, line edit, combo box and table cell of a widget, and its window title.
QString rawTextInWidget(const QWidget* widget)
{
    if (const QString raw = rawTextIn(widget->windowTitle()); !raw.isEmpty())
        return QStringLiteral("window title: ") + raw;
    for (const QLabel* label : widget->findChildren<QLabel*>()) {
        if (const QString raw = rawTextIn(label->text()); !raw.isEmpty())
            return QStringLiteral("label: ") + raw;
        if (const QString raw = rawTextIn(label->toolTip()); !raw.isEmpty())
            return QStringLiteral("label tooltip: ") + raw;
    }
    for (const QLineEdit* edit : widget->findChildren<QLineEdit*>())
        if (const QString raw = rawTextIn(edit->placeholderText() + edit->text()); !raw.isEmpty())
            return QStringLiteral("line edit: ") + raw;
    for (const QComboBox* box : widget->findChildren<QComboBox*>())
        for (int i = 0; i < box->count(); ++i)
            if (const QString raw = rawTextIn(box->itemText(i)); !raw.isEmpty())
                return QStringLiteral("combo box: ") + raw;
    for (const QTableWidget* table : widget->findChildren<QTableWidget*>())
        for (int row = 0; row < table->rowCount(); ++row)
            for (int column = 0; column < table->columnCount(); ++column)
                if (const QTableWidgetItem* item = table->item(row, column))
                    if (const QString raw = rawTextIn(item->text() + QLatin1Char('\n') + item->toolTip());
                        !raw.isEmpty())
                        return QStringLiteral("table cell %1,%2: %3").arg(row).arg(column).arg(raw);
    return {};
}

} // namespace

class TestUiEscaping : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void locksDetailEventsAndDialog();
    void serverErrorTextInMastersAndEvents();
    void connectionTestShowsTheErrorAsText();

private:
    QTemporaryDir m_dir;
};

void TestUiEscaping::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("LockScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_uiescaping"));
}

void TestUiEscaping::locksDetailEventsAndDialog()
{
    RedisServerGroup group;
    QVERIFY2(group.start(3), qPrintable(group.errorString()));
    QStringList names;
    for (int i = 0; i < 3; ++i) {
        group.at(i).command({"CONFIG", "SET", "notify-keyspace-events", "KA"});
        group.at(i).command({"SET", hostileKey, hostileToken, "PX", "600000"});
        group.at(i).command({"SET", richKey, richToken, "PX", "600000"});
        names << group.at(i).url(false);
    }
    MainWindow window(configFor(group.connectionOptions(1000)),
                      m_dir.filePath(QStringLiteral("audit.jsonl")));
    window.show();
    QSignalSpy scanned(&window, &MainWindow::initialScanFinished);
    QVERIFY(scanned.wait(int(lockscope::test::upperBoundMs(10000))));
    QTRY_COMPARE_WITH_TIMEOUT(window.lockModel()->rowCount(), 2, 5000);
    // A keyspace event names the key in the event log.
    for (int i = 0; i < 3; ++i)
        group.at(i).command({"PEXPIRE", hostileKey, "500000"});
    QTRY_VERIFY_WITH_TIMEOUT(modelShows(window.eventLog(), escapeBytes(hostileKey)), 10000);

    QVERIFY(modelShows(window.lockModel(), escapeBytes(hostileKey)));
    QVERIFY(modelShows(window.lockModel(), escapeBytes(hostileOwner)));
    QVERIFY(modelShows(window.lockModel(), QStringLiteral("<i>root</i>\\xe2\\x80\\xaeevil")));
    QVERIFY2(rawTextInModel(window.lockModel()).isEmpty(), qPrintable(rawTextInModel(window.lockModel())));
    QVERIFY2(rawTextInModel(window.eventLog()).isEmpty(), qPrintable(rawTextInModel(window.eventLog())));
    QVERIFY2(rawTextInModel(window.masterModel()).isEmpty(),
             qPrintable(rawTextInModel(window.masterModel())));

    // The detail pane: title, summary, the per-master table and its tooltips.
    window.lockView()->selectResource(hostileKey);
    QVERIFY(window.detailPane()->view().has_value());
    QVERIFY2(rawTextInWidget(window.detailPane()).isEmpty(),
             qPrintable(rawTextInWidget(window.detailPane())));
    QTableWidget* perMaster = window.detailPane()->mastersTable();
    QCOMPARE(perMaster->item(0, LockDetailPane::TokenColumn)->text(), escapeBytes(hostileToken));
    QCOMPARE(perMaster->item(0, LockDetailPane::OwnerColumn)->text(), escapeBytes(hostileOwner));
    bool titled = false;
    for (const QLabel* label : window.detailPane()->findChildren<QLabel*>())
        titled = titled || label->text() == escapeBytes(hostileKey);
    QVERIFY(titled);

    // A key that looks like HTML stays text in the labels that show it.
    window.lockView()->selectResource(richKey);
    int richLooking = 0;
    for (const QLabel* label : window.detailPane()->findChildren<QLabel*>())
        if (label->text().contains(QLatin1String("<b>")) || label->text().contains(QLatin1String("<i>"))) {
            ++richLooking;
            QCOMPARE(label->textFormat(), Qt::PlainText);
        }
    QCOMPARE(richLooking, 2); // the title and the summary
    QVERIFY2(renderedToolTipIn(window.lockModel()).isEmpty(),
             qPrintable(renderedToolTipIn(window.lockModel())));
    QVERIFY(modelShows(window.lockModel(), QString::fromUtf8(richKey)));
    QTableWidget* richTable = window.detailPane()->mastersTable();
    for (int row = 0; row < richTable->rowCount(); ++row)
        for (int column = 0; column < richTable->columnCount(); ++column)
            if (const QTableWidgetItem* item = richTable->item(row, column))
                QVERIFY2(!rendersTags(item->toolTip()), qPrintable(item->toolTip()));

    // The force-release dialog: what each master holds, and the refusal (no lock shape).
    QVERIFY(window.lockModel()->find(hostileKey));
    ForceReleaseDialog dialog(window.core(), *window.lockModel()->find(hostileKey), names, {});
    QSignalSpy inspected(&dialog, &ForceReleaseDialog::inspected);
    QVERIFY(inspected.wait(int(lockscope::test::upperBoundMs(5000))));
    QVERIFY2(rawTextInWidget(&dialog).isEmpty(), qPrintable(rawTextInWidget(&dialog)));
    QVERIFY(dialog.windowTitle().contains(escapeBytes(hostileKey)));
    bool refused = false;
    for (const QLabel* label : dialog.findChildren<QLabel*>())
        if (label->text().startsWith(QLatin1String("Refused"))) {
            refused = true;
            QCOMPARE(label->textFormat(), Qt::PlainText);
        }
    QVERIFY(refused);
    QTableWidget* plan = dialog.findChild<QTableWidget*>();
    // "Holds now" is the last column (after "Will"), whole in its tooltip.
    QVERIFY(plan->item(0, 2)->text().contains(escapeBytes(hostileToken)));
    QVERIFY(plan->item(0, 2)->text().contains(escapeBytes(hostileOwner)));
}

// A master whose every answer is an error text with the hostile bytes: its row, tooltip and the
// event log say why it is down, escaped.
void TestUiEscaping::serverErrorTextInMastersAndEvents()
{
    FakeRedisPeer peer(FakeRedisPeer::alwaysError("WRONGPASS " + hostileBytes + " from the server"));
    QVERIFY(peer.isListening());
    ConnectionOptions options;
    options.url = *RedisUrl::parse(peer.url(QStringLiteral("secret")));
    options.connectTimeoutMs = 1000;
    options.commandTimeoutMs = 1000;
    MainWindow window(configFor({options}), m_dir.filePath(QStringLiteral("audit2.jsonl")));
    window.show();
    const QString escaped = escapeBytes("WRONGPASS " + hostileBytes + " from the server");
    QTRY_VERIFY_WITH_TIMEOUT(modelShows(window.masterModel(), escaped), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(modelShows(window.eventLog(), escaped), 10000);
    QVERIFY2(rawTextInModel(window.masterModel()).isEmpty(),
             qPrintable(rawTextInModel(window.masterModel())));
    QVERIFY2(rawTextInModel(window.eventLog()).isEmpty(), qPrintable(rawTextInModel(window.eventLog())));
}

// The Connections dialog's Test quotes the server's answer: escaped, and as text even where it
// looks like HTML.
void TestUiEscaping::connectionTestShowsTheErrorAsText()
{
    ConnectionEditor editor;
    QSignalSpy tested(&editor, &ConnectionEditor::tested);
    // A plain server first: the test reaches it (it used to send PING before opening, and fail).
    RedisServerGroup real;
    QVERIFY2(real.start(1), qPrintable(real.errorString()));
    editor.urlEdit()->setText(real.at(0).url(false));
    editor.passwordEdit()->setText(real.at(0).options().password);
    editor.testButton()->click();
    QVERIFY(tested.wait(int(lockscope::test::upperBoundMs(10000))));
    QVERIFY2(tested.last().at(0).toBool(), qPrintable(tested.last().at(1).toString()));
    QVERIFY(editor.testResultLabel()->text().startsWith(QLatin1String("Connected: PONG from Redis 7")));

    FakeRedisPeer peer(FakeRedisPeer::alwaysError("WRONGPASS <b>" + hostileBytes + "</b>"));
    QVERIFY(peer.isListening());
    editor.urlEdit()->setText(peer.url());
    editor.testButton()->click();
    QVERIFY(tested.wait(int(lockscope::test::upperBoundMs(10000))));
    QCOMPARE(tested.last().at(0).toBool(), false);
    const QString shown = editor.testResultLabel()->text();
    QVERIFY2(shown.contains(escapeBytes("<b>" + hostileBytes + "</b>")), qPrintable(shown));
    QVERIFY2(rawTextIn(shown).isEmpty(), qPrintable(rawTextIn(shown)));
    QCOMPARE(editor.testResultLabel()->textFormat(), Qt::PlainText);
}

LOCKSCOPE_TEST_MAIN(TestUiEscaping)

} // namespace tst_uiescaping

#include "tst_uiescaping.moc"
