// SPDX-License-Identifier: Apache-2.0
#include "livedemo/demopanel.h"

#include "demo/democlient.h"
#include "demo/demofailover.h"
#include "demo/demoscenariorunner.h"
#include "demo/demoserverprogram.h"
#include "demo/demosession.h"
#include "livedemo/demotimeline.h"
#include "topology/masterset.h"
#include "widgets/bottomfollower.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTime>
#include <QVBoxLayout>

namespace lockscope {

namespace {

const QStringList masterActions{QStringLiteral("kill"), QStringLiteral("restart"), QStringLiteral("pause"),
                                QStringLiteral("resume")};

QString clientStateText(DemoClient::State s)
{
    switch (s) {
    case DemoClient::State::Idle:
        return DemoPanel::tr("idle");
    case DemoClient::State::Acquiring:
        return DemoPanel::tr("acquiring");
    case DemoClient::State::Working:
        return DemoPanel::tr("holding, working");
    case DemoClient::State::Paused:
        return DemoPanel::tr("PAUSED (stop-the-world)");
    case DemoClient::State::Releasing:
        return DemoPanel::tr("releasing");
    case DemoClient::State::Expiring:
        return DemoPanel::tr("letting it expire");
    }
    return {};
}

} // namespace

DemoPanel::DemoPanel(DemoSession* session, QWidget* parent)
    : QWidget(parent), m_session(session), m_timeline(new DemoTimeline(session->simulation(), this)),
      m_status(new QLabel(
          tr("Starting %1 local %2 masters…").arg(DemoSession::masterCount).arg(demoServerProgram()), this)),
      m_counters(new QLabel(this)), m_caption(new QLabel(this)), m_result(new QLabel(this)),
      m_failover(new QLabel(this)), m_fencing(new QCheckBox(tr("Storage checks fencing numbers"), this)),
      m_background(new QCheckBox(tr("Background clients contend"), this)), m_notes(new QPlainTextEdit(this)),
      m_mastersBox(new QGroupBox(tr("Masters"), this)), m_clientsBox(new QGroupBox(tr("Clients"), this))
{
    setObjectName(QStringLiteral("demoPanel"));
    buildScenarios();
    setUpOptions();
    buildLayout();
    buildMasters(m_mastersBox);
    buildClients(m_clientsBox);
    m_mastersBox->setEnabled(false);
    m_clientsBox->setEnabled(false);
    m_scenariosBox->setEnabled(false);
    connectSession();
    updateCounters();
    if (session->isReady())
        onReady();
}

// The scenario buttons, Restore and Dismiss, and below them the caption, the result and the
// failover scenario's holders.
void DemoPanel::buildScenarios()
{
    auto* scenarios = new QGroupBox(tr("Guided scenarios"), this);
    m_scenariosBox = scenarios;
    auto* scenarioGrid = new QGridLayout(scenarios);
    int n = 0;
    for (DemoScenario s : allDemoScenarios()) {
        auto* b = new QPushButton(demoScenarioTitle(s), scenarios);
        b->setToolTip(demoScenarioCaption(s));
        connect(b, &QPushButton::clicked, this, [this, s] { runScenario(s); });
        scenarioGrid->addWidget(b, n / 2, n % 2);
        m_scenarioButtons << b;
        ++n;
    }
    m_heal = new QPushButton(tr("Restore all masters"), scenarios);
    m_heal->setObjectName(QStringLiteral("demoRestore"));
    m_heal->setToolTip(tr("Restarts the killed masters, resumes the paused ones, and writes the sample locks "
                          "again where a restart lost them"));
    connect(m_heal, &QPushButton::clicked, this, &DemoPanel::restoreAllMasters);
    scenarioGrid->addWidget(m_heal, n / 2, n % 2);
    ++n;
    m_dismiss = new QPushButton(tr("Dismiss caption"), scenarios);
    m_dismiss->setObjectName(QStringLiteral("demoDismiss"));
    m_dismiss->setToolTip(tr("Back to the introduction; the scenario's lock is no longer kept on top of the "
                             "locks table"));
    m_dismiss->setEnabled(false);
    connect(m_dismiss, &QPushButton::clicked, this, &DemoPanel::dismissCaption);
    scenarioGrid->addWidget(m_dismiss, n / 2, n % 2);
    m_caption->setWordWrap(true);
    // Captions run to four lines in a narrow dock; a word-wrapped label does not ask for them itself.
    m_caption->setMinimumHeight(m_caption->fontMetrics().lineSpacing() * 4);
    dismissCaption();
    m_result->setWordWrap(true);
    QFont bold = m_result->font();
    bold.setBold(true);
    m_result->setFont(bold);
    scenarioGrid->addWidget(m_caption, (n / 2) + 1, 0, 1, 2);
    scenarioGrid->addWidget(m_result, (n / 2) + 2, 0, 1, 2);
    m_failover->setObjectName(QStringLiteral("demoFailoverHolders"));
    m_failover->setWordWrap(true);
    m_failover->setTextFormat(Qt::PlainText);
    m_failover->setToolTip(tr("lock:demo:failover on the local Sentinel group, as LockScope's monitor of "
                              "that group (one redis-sentinel:// master entry) saw it through the failover"));
    m_failover->hide();
    scenarioGrid->addWidget(m_failover, (n / 2) + 3, 0, 1, 2);
    scenarioGrid->setRowStretch((n / 2) + 4, 1);
}

// The fencing and background switches, and the notes.
void DemoPanel::setUpOptions()
{
    DemoSimulation* sim = m_session->simulation();
    m_fencing->setChecked(true);
    m_fencing->setToolTip(
        tr("With fencing on, the storage rejects a write whose fencing number is lower than "
           "the highest it has seen. Fencing numbers are INCRed on every master; the "
           "highest answer of a majority wins."));
    connect(m_fencing, &QCheckBox::toggled, this, [sim](bool on) { sim->storage()->setFencing(on); });
    m_background->setChecked(true);
    connect(m_background, &QCheckBox::toggled, this, [sim](bool on) { sim->setBackgroundRunning(on); });

    m_notes->setReadOnly(true);
    m_notes->setMaximumBlockCount(500);
    m_notesFollower = new BottomFollower(m_notes);
    m_notes->setObjectName(QStringLiteral("demoNotes"));
    m_notes->setLineWrapMode(QPlainTextEdit::NoWrap);
    // Tall enough to read a few entries at once, in any dock position.
    m_notes->setMinimumHeight(m_notes->fontMetrics().lineSpacing() * 7 + 2 * m_notes->frameWidth() + 8);
}

// Status lines on top, then the masters, clients and scenarios groups, then the timeline beside
// the notes.
void DemoPanel::buildLayout()
{
    m_status->setWordWrap(true);
    m_counters->setWordWrap(true);
    auto* top = new QVBoxLayout;
    top->setSpacing(2);
    top->addWidget(m_status);
    top->addWidget(m_counters);
    m_controls = new QBoxLayout(QBoxLayout::LeftToRight);
    m_controls->addWidget(m_mastersBox, 3);
    m_controls->addWidget(m_clientsBox, 3);
    m_controls->addWidget(m_scenariosBox, 4);
    m_bottom = new QSplitter(Qt::Horizontal, this);
    m_bottom->addWidget(m_timeline);
    m_bottom->addWidget(m_notes);
    m_bottom->setStretchFactor(0, 3);
    m_bottom->setStretchFactor(1, 1);
    m_bottom->setSizes({900, 380});
    m_layout = new QVBoxLayout(this);
    m_layout->addLayout(top);
    m_layout->addLayout(m_controls);
    m_layout->addWidget(m_bottom, 1);
}

void DemoPanel::connectSession()
{
    DemoSimulation* sim = m_session->simulation();
    connect(m_session, &DemoSession::ready, this, [this] {
        m_mastersBox->setEnabled(true);
        m_clientsBox->setEnabled(true);
        m_scenariosBox->setEnabled(true);
        onReady();
    });
    connect(m_session, &DemoSession::failed, this, [this](const RedisError& e) {
        m_status->setText(tr("The demo masters could not start: %1").arg(e.message));
    });
    connect(m_session->cluster(), &DemoCluster::masterStateChanged, this, &DemoPanel::updateMasters);
    connect(sim, &DemoSimulation::changed, this, &DemoPanel::updateCounters);
    connect(sim, &DemoSimulation::changed, this, &DemoPanel::updateMasters);
    connect(sim, &DemoSimulation::clientStateChanged, this, &DemoPanel::updateClients);
    connect(sim, &DemoSimulation::note, this, &DemoPanel::addNote);
    connect(m_session->scenarios(), &DemoScenarioRunner::started, this,
            [this](DemoScenario s, const QString& caption) {
                m_caption->setText(QStringLiteral("<b>%1</b>: %2")
                                       .arg(demoScenarioTitle(s).toHtmlEscaped(), caption.toHtmlEscaped()));
                m_result->setText(tr("Running…"));
                m_result->setStyleSheet(QString());
                m_dismiss->setEnabled(true);
                setPinned(demoScenarioResource(s));
                addNote(tr("scenario: %1").arg(demoScenarioTitle(s)));
                updateCounters();
            });
    connect(m_session->scenarios(), &DemoScenarioRunner::progress, this, [this](const QString& text) {
        m_result->setText(text);
        addNote(text);
    });
    connect(m_session->scenarios(), &DemoScenarioRunner::finished, this,
            [this](DemoScenario, bool asExpected, const QString& summary) {
                m_result->setText(summary);
                m_result->setStyleSheet(asExpected ? QString() : QStringLiteral("color: #b00"));
                addNote(summary);
                updateCounters();
            });
    connect(sim->failover(), &DemoFailover::changed, this, &DemoPanel::updateFailover);
}

void DemoPanel::runScenario(DemoScenario scenario)
{
    m_session->scenarios()->run(scenario);
}

void DemoPanel::restoreAllMasters()
{
    // The session hears of it (DemoSimulation::healRequested) and restores the sample locks once
    // the masters that lost them are back.
    m_session->simulation()->healMasters();
}

void DemoPanel::renewSamples()
{
    m_session->renewSamples();
}

void DemoPanel::dismissCaption()
{
    m_caption->setText(tr("Pick a scenario: each one sets the cluster up, injects one fault and says what to "
                          "watch in the timeline and the locks table."));
    m_result->clear();
    m_result->setStyleSheet(QString());
    if (m_dismiss)
        m_dismiss->setEnabled(false);
    setPinned({});
}

void DemoPanel::setPinned(const QByteArray& resource)
{
    if (resource == m_pinned)
        return;
    m_pinned = resource;
    emit pinnedResourceChanged(resource);
}

void DemoPanel::updateFailover()
{
    const DemoFailover* f = m_session->simulation()->failover();
    const QString text = f->holdersText();
    m_failover->setVisible(!text.isEmpty());
    if (text == m_failover->text())
        return;
    m_failover->setText(text);
    // Two holders at once: the timeline's red.
    m_failover->setStyleSheet(f->isAcquiredByB() ? QStringLiteral("color: #c00") : QString());
}

void DemoPanel::onReady()
{
    QStringList ports;
    for (int i = 0; i < m_session->cluster()->size(); ++i)
        ports << QString::number(m_session->cluster()->port(i));
    m_status->setText(tr("%1 throw-away masters on 127.0.0.1 (ports %2), no persistence; they stop with this "
                         "window.")
                          .arg(m_session->cluster()->size())
                          .arg(ports.join(QStringLiteral(", "))));
    updateMasters();
    updateClients();
}

void DemoPanel::buildMasters(QWidget* box)
{
    auto* grid = new QGridLayout(box);
    grid->setVerticalSpacing(2);
    const QStringList labels{tr("Kill"), tr("Restart"), tr("Pause"), tr("Resume")};
    const QStringList tips{
        tr("SIGKILL: the master and everything it held are gone"),
        tr("A new empty process on the same port, with a new run_id: its locks are forgotten"),
        tr("SIGSTOP: the socket stays open but nothing answers, so clients hit timeouts"), tr("SIGCONT")};
    for (int m = 0; m < DemoSession::masterCount; ++m) {
        grid->addWidget(new QLabel(tr("Master %1").arg(m + 1), box), m, 0);
        auto* state = new QLabel(box);
        state->setMinimumWidth(90);
        grid->addWidget(state, m, 1);
        m_masterState << state;
        QList<QPushButton*> buttons;
        for (int a = 0; a < labels.size(); ++a) {
            auto* b = new QPushButton(labels.at(a), box);
            b->setToolTip(tips.at(a));
            b->setObjectName(QStringLiteral("master%1-%2").arg(m).arg(masterActions.at(a)));
            grid->addWidget(b, m, 2 + a);
            buttons << b;
            DemoCluster* cluster = m_session->cluster();
            connect(b, &QPushButton::clicked, this, [cluster, m, a] {
                if (m >= cluster->size())
                    return;
                switch (a) {
                case 0:
                    cluster->kill(m);
                    break;
                case 1:
                    cluster->restart(m);
                    break;
                case 2:
                    cluster->pause(m);
                    break;
                default:
                    cluster->resume(m);
                    break;
                }
            });
        }
        m_masterButtons << buttons;
    }
    grid->setRowStretch(DemoSession::masterCount, 1);
}

void DemoPanel::buildClients(QWidget* box)
{
    auto* grid = new QGridLayout(box);
    grid->setVerticalSpacing(2);
    const int clients = DemoSimulation::backgroundClients + 2;
    for (int c = 0; c < clients; ++c) {
        auto* swatch = new QLabel(box);
        swatch->setFixedSize(12, 12);
        swatch->setStyleSheet(QStringLiteral("background: %1").arg(DemoTimeline::clientColor(c).name()));
        grid->addWidget(swatch, c, 0);
        grid->addWidget(new QLabel(DemoSimulation::clientName(c), box), c, 1);
        auto* state = new QLabel(box);
        state->setMinimumWidth(130);
        grid->addWidget(state, c, 2);
        m_clientState << state;
        auto* pause = new QPushButton(tr("Pause > TTL"), box);
        pause->setToolTip(tr("A stop-the-world pause longer than the client's TTL (a GC, a VM migration): "
                             "it stops renewing and, when it wakes, writes with the fencing number it still "
                             "believes valid"));
        pause->setObjectName(QStringLiteral("client%1-pause").arg(c));
        DemoSimulation* sim = m_session->simulation();
        connect(pause, &QPushButton::clicked, this, [sim, c] { sim->pauseClient(c); });
        grid->addWidget(pause, c, 3);
        m_clientPause << pause;
    }
    grid->addWidget(m_fencing, clients, 0, 1, 4);
    grid->addWidget(m_background, clients + 1, 0, 1, 4);
    grid->setRowStretch(clients + 2, 1);
}

QPushButton* DemoPanel::masterButton(int master, const QString& action) const
{
    const qsizetype a = masterActions.indexOf(action);
    if (master < 0 || master >= m_masterButtons.size() || a < 0)
        return nullptr;
    return m_masterButtons.at(master).at(a);
}

QPushButton* DemoPanel::scenarioButton(DemoScenario scenario) const
{
    return m_scenarioButtons.value(int(allDemoScenarios().indexOf(scenario)));
}

void DemoPanel::updateMasters()
{
    DemoCluster* cluster = m_session->cluster();
    DemoSimulation* sim = m_session->simulation();
    for (int m = 0; m < m_masterState.size(); ++m) {
        if (m >= cluster->size()) {
            m_masterState.at(m)->setText(tr("starting…"));
            continue;
        }
        const DemoCluster::MasterState s = cluster->state(m);
        QString text;
        QString colour;
        switch (s) {
        case DemoCluster::MasterState::Starting:
            text = tr("starting…");
            colour = QStringLiteral("#888");
            break;
        case DemoCluster::MasterState::Running:
            text = sim->isMasterUp(m) ? tr("● up") : tr("● running");
            colour = QStringLiteral("#2a2");
            break;
        case DemoCluster::MasterState::Paused:
            text = tr("❚❚ paused");
            colour = QStringLiteral("#d80");
            break;
        case DemoCluster::MasterState::Killed:
            text = tr("✖ killed");
            colour = QStringLiteral("#c22");
            break;
        }
        m_masterState.at(m)->setText(text);
        m_masterState.at(m)->setStyleSheet(QStringLiteral("color: %1").arg(colour));
        const QList<QPushButton*>& b = m_masterButtons.at(m);
        b.at(0)->setEnabled(s != DemoCluster::MasterState::Killed);
        b.at(1)->setEnabled(s != DemoCluster::MasterState::Starting);
        b.at(2)->setEnabled(s == DemoCluster::MasterState::Running);
        b.at(3)->setEnabled(s == DemoCluster::MasterState::Paused);
    }
}

void DemoPanel::updateClients()
{
    DemoSimulation* sim = m_session->simulation();
    for (int c = 0; c < m_clientState.size() && c < sim->clients().size(); ++c) {
        const DemoClient* client = sim->client(c);
        QString text = clientStateText(client->state());
        if (client->isHolding())
            text += QStringLiteral(" %1 #%2")
                        .arg(QString::fromUtf8(client->lease().resource))
                        .arg(client->fencing());
        m_clientState.at(c)->setText(text);
        m_clientPause.at(c)->setEnabled(!client->isPaused());
    }
}

void DemoPanel::updateCounters()
{
    // One vocabulary with the result lines: "two holders" when the lock let two clients in at once,
    // "stale accepted" when the storage took a write from a holder that no longer held it (fencing
    // off), "stale rejected" when fencing stopped one. Red is either of the first two.
    const auto line = [](const DemoCounters& c) {
        return tr("Acquisitions <b>%1</b> · busy %2 · failed <b>%3</b> · writes %4 · overruns %5 · "
                  "<span style='color:%6'>two holders <b>%7</b> · stale accepted <b>%8</b></span> · "
                  "stale rejected %9")
            .arg(c.acquisitions)
            .arg(c.busy)
            .arg(c.failures)
            .arg(c.writesAccepted)
            .arg(c.overruns)
            .arg(c.violations() > 0 ? QStringLiteral("#c00") : QStringLiteral("inherit"))
            .arg(c.doubleHolds)
            .arg(c.staleAccepted)
            .arg(c.staleRejected);
    };
    const DemoScenarioRunner* runner = m_session->scenarios();
    QString scenario;
    if (runner->hasMeasured())
        // The same numbers as the scenario's result line: DemoScenarioRunner::measured().
        scenario = tr("%1, from the fault to the result: %2<br>")
                       .arg(demoScenarioTitle(runner->current()).toHtmlEscaped(), line(runner->measured()));
    const QString overall = line(m_session->simulation()->counters());
    m_counters->setText(scenario.isEmpty() ? overall : QString(scenario + tr("Overall: %1").arg(overall)));
}

void DemoPanel::addNote(const QString& text)
{
    m_notes->appendPlainText(
        QStringLiteral("%1  %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), text));
    m_notesFollower->follow(); // the newest entry, unless the reader scrolled up to an older one
}

void DemoPanel::setStacked(bool stacked)
{
    m_controls->setDirection(stacked ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
    // Stacked (a column beside the locks, which scrolls on a small screen), the scenarios with their
    // caption and result come first and the timeline and commentary right after them, so the story
    // is on screen together; the per-master and per-client controls follow. Side by side, the groups
    // share the width above the timeline.
    m_layout->removeWidget(m_scenariosBox);
    m_controls->removeWidget(m_scenariosBox);
    m_layout->removeWidget(m_bottom);
    m_layout->removeItem(m_controls);
    if (stacked) {
        m_layout->insertWidget(1, m_scenariosBox);
        m_layout->insertWidget(2, m_bottom, 1);
        m_layout->insertLayout(3, m_controls);
        m_controls->setStretch(0, 0);
        m_controls->setStretch(1, 0);
    } else {
        m_controls->addWidget(m_scenariosBox, 4);
        m_controls->setStretch(0, 3);
        m_controls->setStretch(1, 3);
        m_layout->insertLayout(1, m_controls);
        m_layout->insertWidget(2, m_bottom, 1);
    }
    m_bottom->setOrientation(stacked ? Qt::Vertical : Qt::Horizontal);
}

} // namespace lockscope
