// SPDX-License-Identifier: Apache-2.0
#include "writes/forcereleasedialog.h"

#include "base/bytesdisplay.h"
#include "session/corethread.h"
#include "widgets/plaintooltip.h"
#include "widgets/statusstyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace lockscope {

namespace {

// What will happen comes before what is there now: a long token elides in the last column, and
// never pushes "Will" off the dialog's edge.
enum PlanColumn
{
    MasterColumn,
    WillColumn,
    HoldsColumn,
    ColumnCount
};

// How often an open dialog reads the key again, so that a holder that changes while the admin
// reads the plan is shown before the confirmation, not only spared by the script after it.
constexpr int kRefreshMs = 1000;

bool isUnrecognised(LockFormat format)
{
    return format == LockFormat::Unknown || format == LockFormat::PlainToken;
}

// What the plan would do on a master, compared between two reads: the step and what it acts on.
bool sameStep(const ForceReleaseTarget& a, const ForceReleaseTarget& b)
{
    return a.step.kind == b.step.kind && a.step.commands == b.step.commands &&
           a.observation.present == b.observation.present && a.lock.token == b.lock.token;
}

QString describeTarget(const ForceReleaseTarget& t)
{
    if (t.observation.error.isError())
        return ForceReleaseDialog::tr("unreachable: %1").arg(t.observation.error.message);
    if (!t.observation.present)
        return ForceReleaseDialog::tr("nothing");
    QString text =
        ForceReleaseDialog::tr("%1 %2, token %3")
            .arg(escapeBytes(t.observation.type), lockFormatName(t.lock.format), escapeBytes(t.lock.token));
    if (!t.lock.owner.isEmpty())
        text += ForceReleaseDialog::tr(", owner %1").arg(t.lock.owner);
    text += t.observation.pttlMs >= 0 ? ForceReleaseDialog::tr(", %1 ms left").arg(t.observation.pttlMs)
                                      : ForceReleaseDialog::tr(", no expiry");
    return text;
}

// What really goes to the master: never the bare commands; one script that checks first, or the
// server's own compare-and-delete command.
QString commandsText(const ForceReleaseStep& step)
{
    if (!step.sentAs.isEmpty())
        return ForceReleaseDialog::tr("Sent as the server's own compare-and-delete, which deletes the key "
                                      "only while it holds the token shown (no script):\n  %1")
            .arg(escapeCommand(step.sentAs));
    QStringList lines{
        ForceReleaseDialog::tr("Sent as one script (EVALSHA) that checks first, %1, and only then "
                               "runs:")
            .arg(step.condition.isEmpty() ? ForceReleaseDialog::tr("that the lock is still as read")
                                          : step.condition)};
    for (const QByteArrayList& c : step.commands)
        lines << QStringLiteral("  ") + escapeCommand(c);
    return lines.join(QLatin1Char('\n'));
}

QString sentText(const QList<QByteArrayList>& commands)
{
    QStringList lines{ForceReleaseDialog::tr("Sent:")};
    for (const QByteArrayList& c : commands)
        lines << QStringLiteral("  ") + escapeCommand(c);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

QString ForceReleaseDialog::pastTense(const ForceReleaseOutcome& outcome)
{
    using Action = ForceReleaseMasterResult::Action;
    // In the order a reader wants: what was deleted, then what was left and why.
    const QList<Action> order{Action::Deleted,   Action::HolderRemoved, Action::Spared,    Action::Absent,
                              Action::WrongType, Action::Failed,        Action::NotChosen, Action::NotSent};
    QStringList parts;
    for (Action action : order) {
        QStringList masters;
        for (const ForceReleaseMasterResult& r : outcome.results)
            if (r.action == action)
                masters << r.master;
        if (masters.isEmpty())
            continue;
        const QString on = masters.join(QStringLiteral(", "));
        switch (action) {
        case Action::Deleted:
            parts << tr("deleted on %1").arg(on);
            break;
        case Action::HolderRemoved:
            parts << tr("holder removed on %1").arg(on);
            break;
        case Action::Spared:
            parts << tr("spared on %1 (the token had changed)").arg(on);
            break;
        case Action::Absent:
            parts << tr("not present on %1").arg(on);
            break;
        case Action::WrongType:
            parts << tr("left alone on %1 (not a lock's key type)").arg(on);
            break;
        case Action::Failed:
            parts << tr("failed on %1").arg(on);
            break;
        case Action::NotChosen:
            parts << tr("not touched on %1 (not chosen)").arg(on);
            break;
        case Action::NotSent:
            parts << tr("nothing sent to %1").arg(on);
            break;
        }
    }
    if (parts.isEmpty())
        return tr("Nothing was sent to any master.");
    QString text = parts.join(QStringLiteral("; ")) + QLatin1Char('.');
    text[0] = text.at(0).toUpper();
    return text;
}

ForceReleaseDialog::ForceReleaseDialog(CoreThread* core, const LockView& view, const QStringList& masterNames,
                                       Session session, QWidget* parent)
    : QDialog(parent), m_core(core), m_view(view), m_names(masterNames), m_readOnly(session.readOnly),
      m_production(session.production), m_expected(view.token), m_heading(new QLabel(this)),
      m_guard(new QLabel(this)), m_holder(new QComboBox(this)),
      m_table(new QTableWidget(0, ColumnCount, this)), m_unrecognised(new QLabel(this)),
      m_prompt(new QLabel(this)), m_typed(new QLineEdit(this)), m_plainConfirm(new QCheckBox(this)),
      m_result(new QLabel(this)), m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this)),
      m_release(m_buttons->addButton(tr("Force-release"), QDialogButtonBox::DestructiveRole)),
      m_refresh(new QTimer(this))
{
    setWindowTitle(tr("Force-release %1").arg(escapeBytes(view.resource)));
    m_heading->setWordWrap(true);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // These quote refusals and server errors, which may hold a key name: never rich text.
    m_guard->setTextFormat(Qt::PlainText);
    m_result->setTextFormat(Qt::PlainText);
    m_guard->setWordWrap(true);
    m_result->setWordWrap(true);
    m_table->setHorizontalHeaderLabels({tr("Master"), tr("Will"), tr("Holds now")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    // Every column fits the dialog: "Will" wraps, a long token is cut in the middle (the tooltip
    // has it whole), and nothing waits to the right of a scroll bar.
    m_table->setWordWrap(true);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->horizontalHeader()->setSectionResizeMode(MasterColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(WillColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(HoldsColumn, QHeaderView::Stretch);
    m_unrecognised->setObjectName(QStringLiteral("unrecognisedWarning"));
    m_unrecognised->setTextFormat(Qt::PlainText);
    m_unrecognised->setWordWrap(true);
    m_unrecognised->setForegroundRole(QPalette::BrightText);
    m_unrecognised->setAutoFillBackground(true);
    m_unrecognised->setBackgroundRole(QPalette::Highlight);
    m_unrecognised->setVisible(isUnrecognised(view.format));
    m_unrecognised->setText(
        tr("LockScope does not recognise this key as any lock library's (its value is %1). It is "
           "listed only because a scan pattern says every key it matches is a lock: force-release "
           "deletes it like any other key.")
            .arg(view.format == LockFormat::PlainToken ? tr("plain text") : tr("of no known shape")));

    // A semaphore is released one holder at a time: the admin picks which. A Redisson lock with
    // several holders (readers) loses all of them or the one picked; readers that join later stay.
    const bool redissonHolders =
        (view.format == LockFormat::Redisson || view.format == LockFormat::RedissonReadWrite) &&
        view.token.contains(',');
    if (view.format == LockFormat::Semaphore || redissonHolders) {
        if (redissonHolders)
            m_holder->addItem(tr("all holders seen: %1").arg(escapeBytes(view.token)), view.token);
        for (const MasterObservation& m : view.observations)
            for (const LockHolder& h : m.lock().holderList())
                if (m_holder->findData(h.id) < 0)
                    m_holder->addItem(tr("holder %1 %2").arg(escapeBytes(h.id), h.owner), h.id);
        if (m_holder->count() > 0)
            m_expected = m_holder->itemData(0).toByteArray();
        connect(m_holder, &QComboBox::currentIndexChanged, this, [this] {
            m_expected = m_holder->currentData().toByteArray();
            inspect();
        });
    }
    m_holder->setVisible(m_holder->count() > 0);

    m_heading->setText(
        tr("<b>%1</b> — %2, %3 of %4 masters, token <tt>%5</tt>. Only masters that still hold "
           "this token are touched.")
            .arg(escapeBytes(view.resource).toHtmlEscaped(), StatusStyle::statusText(view.status))
            .arg(view.holding)
            .arg(view.total)
            .arg(escapeBytes(m_expected).toHtmlEscaped()));
    if (needsTypedConfirmation()) {
        m_prompt->setText(
            isUnrecognised(view.format) ? tr("This may be an ordinary key. Type its name to confirm:")
            : m_production
                ? tr("These are production masters. Type the resource name to confirm:")
                : tr("This lock is held with a quorum: somebody may be relying on it. Type the resource "
                     "name to confirm:"));
        m_plainConfirm->hide();
    } else {
        m_prompt->hide();
        m_typed->hide();
        m_plainConfirm->setText(tr("Yes, do this where the lock is still as shown"));
    }
    // A hint, never the name itself: a placeholder that could be copied would make the typed
    // confirmation a formality.
    m_typed->setPlaceholderText(tr("type the resource name to confirm"));
    connect(m_typed, &QLineEdit::textChanged, this, &ForceReleaseDialog::updateButton);
    connect(m_plainConfirm, &QCheckBox::toggled, this, &ForceReleaseDialog::updateButton);
    connect(m_release, &QPushButton::clicked, this, &ForceReleaseDialog::confirm);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ForceReleaseDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addWidget(m_holder);
    layout->addWidget(m_unrecognised);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_guard);
    layout->addWidget(m_prompt);
    layout->addWidget(m_typed);
    layout->addWidget(m_plainConfirm);
    layout->addWidget(m_result);
    layout->addWidget(m_buttons);
    resize(760, 420);
    // The one thing the user has to do here: type the name (or tick the box).
    if (needsTypedConfirmation())
        m_typed->setFocus(Qt::OtherFocusReason);
    else
        m_plainConfirm->setFocus(Qt::OtherFocusReason);

    connect(core->service(), &CoreService::forceReleaseInspected, this,
            [this](quint64 request, const ForceReleasePlan& plan) {
                if (request == m_inspectRequest) {
                    showPlan(plan);
                } else if (request == m_refreshRequest) {
                    m_refreshRequest = 0;
                    if (m_stage == Stage::Ready)
                        refreshPlan(plan);
                }
            });
    m_refresh->setInterval(kRefreshMs);
    connect(m_refresh, &QTimer::timeout, this, [this] {
        if (m_stage != Stage::Ready || !m_core || m_refreshRequest != 0)
            return;
        m_refreshRequest = m_core->request(&CoreService::inspectForceRelease, requestFor(m_expected));
    });
    connect(core->service(), &CoreService::forceReleaseFinished, this,
            [this](const ForceReleaseReport& report) {
                if (report.request == m_executeRequest)
                    showOutcome(report);
            });
    // The window may replace its core while this is open (a reconnect, another profile).
    connect(core, &QObject::destroyed, this, &ForceReleaseDialog::onCoreGone);
    inspect();
}

bool ForceReleaseDialog::needsTypedConfirmation() const
{
    return m_production || (m_view.status == LockStatus::Held && m_view.holding >= m_view.needed) ||
           isUnrecognised(m_view.format);
}

ForceReleaseRequest ForceReleaseDialog::requestFor(const QByteArray& token) const
{
    ForceReleaseRequest request;
    request.resource = m_view.resource;
    request.mode = ForceReleaseMode::ExpectToken;
    request.expectedToken = token;
    return request;
}

bool ForceReleaseDialog::canConfirm() const
{
    if (m_readOnly || m_stage != Stage::Ready || !m_plan || !m_plan->anyPresent())
        return false;
    if (!m_plan->refusal.isEmpty())
        return false;
    return needsTypedConfirmation() ? m_typed->text() == escapeBytes(m_view.resource)
                                    : m_plainConfirm->isChecked();
}

void ForceReleaseDialog::updateButton()
{
    m_release->setEnabled(canConfirm());
}

void ForceReleaseDialog::inspect()
{
    m_stage = Stage::Inspecting;
    m_plan.reset();
    m_firstPlan.reset();
    m_refresh->stop();
    if (!m_core)
        return onCoreGone();
    m_guard->setText(tr("Reading the key on every master…"));
    m_inspectRequest = m_core->request(&CoreService::inspectForceRelease, requestFor(m_expected));
    updateButton();
}

void ForceReleaseDialog::showPlan(const ForceReleasePlan& plan)
{
    m_plan = plan;
    if (!m_firstPlan)
        m_firstPlan = plan;
    m_stage = Stage::Ready;
    m_table->setRowCount(int(plan.targets.size()));
    int deleting = 0;
    int changed = 0;
    QStringList movedSinceOpened;
    bool unrecognised = isUnrecognised(m_view.format);
    for (int row = 0; row < plan.targets.size(); ++row) {
        const ForceReleaseTarget& t = plan.targets.at(row);
        unrecognised = unrecognised || (t.observation.present && isUnrecognised(t.lock.format));
        // The step the core will execute, in its own words: the dialog decides nothing itself.
        const QString will = t.step.summary();
        switch (t.step.kind) {
        case ForceReleaseStep::Kind::Delete:
        case ForceReleaseStep::Kind::RemoveHolders:
            ++deleting;
            break;
        case ForceReleaseStep::Kind::Spare:
            ++changed;
            break;
        default:
            break;
        }
        const bool moved = row < m_firstPlan->targets.size() && !sameStep(t, m_firstPlan->targets.at(row));
        if (moved)
            movedSinceOpened << m_names.value(t.index, t.master);
        QStringList cells(ColumnCount);
        cells[MasterColumn] = t.master;
        cells[WillColumn] = will;
        cells[HoldsColumn] = describeTarget(t);
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells.at(c));
            item->setToolTip(plainToolTip(c == WillColumn && !t.step.commands.isEmpty()
                                              ? cells.at(c) + QLatin1Char('\n') + commandsText(t.step)
                                              : cells.at(c)));
            if (c == WillColumn && t.step.kind == ForceReleaseStep::Kind::Delete)
                item->setForeground(StatusStyle::statusColor(LockStatus::Stuck, palette()));
            if (moved) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            m_table->setItem(row, c, item);
        }
    }
    m_table->resizeRowsToContents();
    m_unrecognised->setVisible(unrecognised);
    QString guard = tr("%n master(s) will be touched.", nullptr, deleting);
    if (!movedSinceOpened.isEmpty())
        guard += QLatin1Char(' ') + tr("Changed while this dialog was open: %1 (in bold). Confirm again.")
                                        .arg(movedSinceOpened.join(QStringLiteral(", ")));
    else if (changed > 0)
        guard += QLatin1Char(' ') +
                 tr("The lock changed hands on %n master(s) since it was shown: those are spared.", nullptr,
                    changed);
    if (!plan.refusal.isEmpty())
        guard = tr("Refused: %1").arg(plan.refusal);
    if (m_readOnly)
        guard += QLatin1Char(' ') + tr("Read-only mode: nothing can be deleted from this window.");
    m_guard->setText(guard);
    updateButton();
    if (!m_readOnly)
        m_refresh->start();
    emit inspected();
}

void ForceReleaseDialog::refreshPlan(const ForceReleasePlan& plan)
{
    bool same = plan.refusal == m_plan->refusal && plan.targets.size() == m_plan->targets.size();
    for (int i = 0; same && i < plan.targets.size(); ++i)
        same = sameStep(plan.targets.at(i), m_plan->targets.at(i));
    if (same)
        return;
    // What the admin agreed to is no longer what would happen: the agreement goes with it.
    m_typed->clear();
    m_plainConfirm->setChecked(false);
    showPlan(plan);
}

void ForceReleaseDialog::confirm()
{
    if (!canConfirm() || !m_core)
        return;
    m_stage = Stage::Executing;
    m_refresh->stop();
    m_release->setEnabled(false);
    m_typed->setEnabled(false);
    m_plainConfirm->setEnabled(false);
    m_holder->setEnabled(false);
    m_result->setText(tr("Deleting…"));
    m_executeRequest = m_core->request(&CoreService::executeForceRelease, *m_plan);
}

void ForceReleaseDialog::showOutcome(const ForceReleaseReport& report)
{
    m_outcome = report.outcome;
    m_stage = Stage::Finished;
    m_table->setHorizontalHeaderLabels({tr("Master"), tr("Outcome"), tr("Held before")});
    m_table->setRowCount(int(report.outcome.results.size()));
    for (int row = 0; row < report.outcome.results.size(); ++row) {
        const ForceReleaseMasterResult& r = report.outcome.results.at(row);
        QString what = forceReleaseActionName(r.action);
        if (r.error.isError())
            what += QStringLiteral(": ") + r.error.message;
        else if (!r.detail.isEmpty())
            what += QStringLiteral("; ") + r.detail; // the core escaped it
        QStringList cells(ColumnCount);
        cells[MasterColumn] = r.master;
        cells[WillColumn] = what;
        cells[HoldsColumn] = escapeBytes(r.tokenBefore);
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells.at(c));
            item->setToolTip(plainToolTip(c == WillColumn && !r.commands.isEmpty()
                                              ? what + QLatin1Char('\n') + sentText(r.commands)
                                              : cells.at(c)));
            m_table->setItem(row, c, item);
        }
    }
    m_table->resizeRowsToContents();
    // What happened, in the past tense, per master: the plan's "will be touched" is over.
    m_guard->setText(pastTense(report.outcome));
    m_prompt->hide();
    m_typed->hide();
    m_plainConfirm->hide();
    QString text = tr("Outcome: %1").arg(report.outcome.outcomeText());
    if (!report.outcome.error.message.isEmpty())
        text += QStringLiteral(" — ") + report.outcome.error.message;
    if (report.outcome.auditError.isError())
        text += QLatin1Char('\n') + tr("Audit log: %1").arg(report.outcome.auditError.message);
    m_result->setText(text);
    m_release->hide();
    m_buttons->button(QDialogButtonBox::Cancel)->setText(tr("Close"));
    emit released(report);
}

void ForceReleaseDialog::reject()
{
    // Looked at, not confirmed: the audit log says so, as lockctl's does.
    if (m_stage == Stage::Ready && m_plan && !m_readOnly && m_core)
        m_core->call(&CoreService::cancelForceRelease, *m_plan);
    if (m_stage == Stage::Executing)
        return; // the deletion is under way: its outcome must be seen
    m_refresh->stop();
    QDialog::reject();
}

void ForceReleaseDialog::onCoreGone()
{
    // Whatever was read or asked for went through the old connection: its answer will never come,
    // and the plan may not match the masters now watched. An execution under way may have run; the
    // audit log has its outcome.
    const bool wasExecuting = m_stage == Stage::Executing;
    m_stage = Stage::Finished;
    m_refresh->stop();
    m_plan.reset();
    m_release->setEnabled(false);
    m_typed->setEnabled(false);
    m_plainConfirm->setEnabled(false);
    m_holder->setEnabled(false);
    m_result->setText(wasExecuting ? tr("The connection changed while deleting: the outcome is in the audit "
                                        "log. Open the dialog again to see the lock now.")
                                   : tr("The connection changed: nothing was deleted. Open the dialog again "
                                        "to see the lock now."));
    m_buttons->button(QDialogButtonBox::Cancel)->setText(tr("Close"));
}

} // namespace lockscope
