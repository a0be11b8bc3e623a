// SPDX-License-Identifier: Apache-2.0
#include "connections/connectionsdialog.h"

#include "connection/topologyurl.h"
#include "connections/connectioneditor.h"
#include "connections/pastemastersdialog.h"
#include "connections/profilestore.h"
#include "connections/secretstore.h"
#include "connections/teamdatabaseeditor.h"
#include "widgets/patternlistedit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

#include <memory>

namespace lockscope {

ConnectionsDialog::ConnectionsDialog(QWidget* parent)
    : QDialog(parent), m_profiles(ProfileStore::load()), m_profile(new QComboBox(this)),
      m_table(new QTableWidget(0, 4, this)),
      m_readOnly(new QCheckBox(tr("&Read-only: refuse every write"), this)),
      m_lockReadOnly(new QCheckBox(tr("&Lock read-only: for good, and for the rest of this session"), this)),
      m_production(new QCheckBox(
          tr("Pro&duction: opens read-only; writes are unlocked for a session at a time"), this)),
      m_deleteProfile(nullptr), m_message(new QLabel(this)), m_connect(nullptr),
      m_patterns(new PatternListEdit(this)), m_scanRate(new QComboBox(this))
{
    setWindowTitle(tr("Connections"));
    m_table->setHorizontalHeaderLabels({tr("URL"), tr("User"), tr("TLS"), tr("Password")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    // The URL is what tells masters apart: it takes the room, the short columns fit their text,
    // and nothing wraps (a long URL is elided in the middle, whole in its tooltip).
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_message->setWordWrap(true);

    auto* newProfile = new QPushButton(tr("New profile…"), this);
    auto* deleteProfile = new QPushButton(tr("Delete profile"), this);
    m_deleteProfile = deleteProfile;
    auto* top = new QHBoxLayout;
    auto* profileLabel = new QLabel(tr("&Profile:"), this);
    profileLabel->setBuddy(m_profile); // Alt+P, and no literal '&'
    top->addWidget(profileLabel);
    top->addWidget(m_profile, 1);
    top->addWidget(newProfile);
    top->addWidget(deleteProfile);
    auto* add = new QPushButton(tr("&Add master…"), this);
    auto* several = new QPushButton(tr("Add &several…"), this);
    several->setObjectName(QStringLiteral("addSeveral"));
    several->setToolTip(tr("Paste several masters' URLs at once, one per line"));
    auto* edit = new QPushButton(tr("&Edit…"), this);
    auto* remove = new QPushButton(tr("Re&move"), this);
    auto* team = new QPushButton(tr("&Team database…"), this);
    team->setObjectName(QStringLiteral("teamDatabase"));
    m_team = team;
    auto* side = new QVBoxLayout;
    side->addWidget(add);
    side->addWidget(several);
    side->addWidget(edit);
    side->addWidget(remove);
    side->addSpacing(12);
    side->addWidget(team);
    side->addStretch(1);
    auto* middle = new QHBoxLayout;
    middle->addWidget(m_table, 1);
    middle->addLayout(side);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_connect = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(middle, 1);
    layout->addWidget(m_patterns);
    m_scanRate->setEditable(true);
    m_scanRate->addItems({QString(), QStringLiteral("auto"), QStringLiteral("max")});
    m_scanRate->lineEdit()->setPlaceholderText(tr("as started (auto unless --scan-rate)"));
    m_scanRate->setToolTip(tr("How fast this profile's masters are scanned: auto (paced so that their other "
                              "clients do not notice), max (the first pass at full speed) or at most a "
                              "number of keys a second (e.g. 50000)."));
    auto* rateRow = new QHBoxLayout;
    auto* rateLabel = new QLabel(tr("Sca&n rate:"), this);
    rateLabel->setBuddy(m_scanRate);
    rateRow->addWidget(rateLabel);
    rateRow->addWidget(m_scanRate, 1);
    layout->addLayout(rateRow);
    layout->addWidget(m_readOnly);
    layout->addWidget(m_lockReadOnly);
    layout->addWidget(m_production);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    resize(760, 480);

    for (const ConnectionProfile& p : std::as_const(m_profiles))
        m_profile->addItem(p.name);
    connect(m_profile, &QComboBox::currentIndexChanged, this, &ConnectionsDialog::showProfile);
    connect(newProfile, &QPushButton::clicked, this, &ConnectionsDialog::addProfile);
    connect(deleteProfile, &QPushButton::clicked, this, &ConnectionsDialog::removeProfile);
    connect(add, &QPushButton::clicked, this, &ConnectionsDialog::addMaster);
    connect(several, &QPushButton::clicked, this, &ConnectionsDialog::addSeveralMasters);
    connect(edit, &QPushButton::clicked, this, &ConnectionsDialog::editMaster);
    connect(m_table, &QTableWidget::doubleClicked, this, &ConnectionsDialog::editMaster);
    connect(remove, &QPushButton::clicked, this, &ConnectionsDialog::removeMaster);
    connect(team, &QPushButton::clicked, this, &ConnectionsDialog::editTeamDatabase);
    connect(m_scanRate, &QComboBox::currentTextChanged, this, [this](const QString& text) {
        ConnectionProfile* p = current();
        if (!p)
            return;
        if (text.trimmed().isEmpty()) {
            p->scanRate.reset();
        } else if (const Result<ScanRate> rate = ScanRate::parse(text)) {
            p->scanRate = *rate;
        } else {
            m_message->setText(rate.error().message);
            return; // kept as it was until the text reads
        }
        m_message->clear();
        save();
    });
    connect(m_readOnly, &QCheckBox::toggled, this, [this](bool on) {
        if (ConnectionProfile* p = current(); p && !p->readOnlyLocked) {
            p->readOnly = on;
            save();
        }
        showProfile();
    });
    connect(m_lockReadOnly, &QCheckBox::toggled, this, [this](bool on) {
        if (ConnectionProfile* p = current(); p && on) {
            p->readOnly = true;
            p->readOnlyLocked = true; // one way: ProfileStore keeps it from now on
            save();
        }
        showProfile();
    });
    connect(m_production, &QCheckBox::toggled, this, [this](bool on) {
        if (ConnectionProfile* p = current()) {
            p->production = on;
            save();
        }
    });
    m_production->setObjectName(QStringLiteral("production"));
    m_production->setToolTip(
        tr("For the masters a mistake must not reach: every window opened on this profile "
           "starts read-only and marks it PRODUCTION; File > Unlock writes makes it "
           "writable until it closes or another profile is chosen (the audit log records "
           "who unlocked it), and a force-release asks for the resource's name typed out."));
    connect(m_patterns, &PatternListEdit::changed, this, [this] {
        if (ConnectionProfile* p = current()) {
            p->patterns = m_patterns->patterns();
            save();
        }
    });
    connect(m_connect, &QPushButton::clicked, this, &ConnectionsDialog::connectProfile);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    showProfile();
}

ConnectionsDialog::~ConnectionsDialog()
{
    m_patterns->disconnect(this);
}

ConnectionProfile* ConnectionsDialog::current()
{
    const int i = m_profile->currentIndex();
    return i >= 0 && i < m_profiles.size() ? &m_profiles[i] : nullptr;
}

void ConnectionsDialog::save()
{
    ProfileStore::save(m_profiles);
}

void ConnectionsDialog::showProfile()
{
    const ConnectionProfile* p = current();
    m_table->setRowCount(p ? int(p->masters.size()) : 0);
    const bool locked = p && p->readOnlyLocked;
    m_readOnly->setEnabled(p && !locked);
    m_lockReadOnly->setEnabled(p && !locked);
    m_deleteProfile->setEnabled(p && !locked);
    m_production->setEnabled(p);
    // Exactly what the lock binds (docs/manual/safety.md, "Read-only mode", says the same).
    const QString binds =
        tr("Locked read-only: every window opened on this profile is read-only, whatever its masters, and "
           "stays read-only until LockScope quits, even if another profile is chosen later (Ctrl+K). "
           "LockScope cannot clear the lock or delete the profile. It does not bind other profiles, "
           "lockctl, or anyone who edits the settings file (%1) by hand.")
            .arg(QSettings().fileName());
    m_lockReadOnly->setToolTip(binds);
    m_readOnly->setToolTip(locked ? binds
                                  : tr("Read-only: windows opened on this profile refuse every write. "
                                       "It can be turned off again here."));
    m_connect->setEnabled(p && !p->masters.isEmpty());
    m_team->setText(p && !p->team.isEmpty() ? tr("&Team database ✓") : tr("&Team database…"));
    m_team->setToolTip(p && !p->team.isEmpty()
                           ? tr("Writes are audited in %1 too").arg(p->team.url)
                           : tr("Record this profile's writes in a team's PostgreSQL audit trail too"));
    m_patterns->setEnabled(p);
    m_patterns->setPatterns(p ? p->patterns : QList<ScanPattern>());
    m_scanRate->setEnabled(p);
    {
        const QSignalBlocker blockRate(m_scanRate);
        m_scanRate->setEditText(p && p->scanRate ? p->scanRate->toString() : QString());
    }
    if (!p) {
        m_message->setText(tr("Create a profile, then add its masters."));
        return;
    }
    const QSignalBlocker block(m_readOnly);
    const QSignalBlocker blockLock(m_lockReadOnly);
    m_readOnly->setChecked(p->isReadOnly());
    m_lockReadOnly->setChecked(locked);
    const QSignalBlocker blockProduction(m_production);
    m_production->setChecked(p->production);
    for (int row = 0; row < p->masters.size(); ++row) {
        const MasterEntry& e = p->masters.at(row);
        const QString tls = e.caFile.isEmpty() && e.certFile.isEmpty()
                                ? (e.insecure ? tr("unverified") : QString())
                                : tr("files");
        const QString secret = e.passwordInKeychain       ? tr("keychain")
                               : !e.passwordEnv.isEmpty() ? tr("$%1").arg(e.passwordEnv)
                               : !SecretStore::sessionSecret(e.keychainKey(p->name)).isEmpty()
                                   ? tr("this session only")
                                   : tr("none");
        const QStringList cells{e.url, e.user, tls, secret};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells.at(c));
            item->setToolTip(cells.at(c));
            m_table->setItem(row, c, item);
        }
        if (TopologyUrl::hasTopologyScheme(e.url))
            m_table->item(row, 0)->setToolTip(
                e.url.contains(QStringLiteral("-cluster://"))
                    ? tr("A Redis Cluster: one master for Redlock, its primaries shown under it.")
                    : tr("A Sentinel group: one master for Redlock, following its current primary."));
    }
    m_message->setText(quorumText(int(p->masters.size())));
}

void ConnectionsDialog::addProfile()
{
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("New profile"), tr("Name:"), QLineEdit::Normal, QString(), &ok)
            .trimmed();
    if (!ok || name.isEmpty())
        return;
    for (const ConnectionProfile& p : std::as_const(m_profiles))
        if (p.name == name) {
            m_message->setText(tr("A profile named %1 exists already.").arg(name));
            return;
        }
    m_profiles << ConnectionProfile{name, {}, false};
    m_profile->addItem(name);
    m_profile->setCurrentIndex(m_profile->count() - 1);
    save();
}

void ConnectionsDialog::removeProfile()
{
    const ConnectionProfile* p = current();
    if (!p || p->readOnlyLocked ||
        QMessageBox::question(this, tr("Delete profile"), tr("Delete the profile %1?").arg(p->name)) !=
            QMessageBox::Yes)
        return;
    for (const MasterEntry& e : p->masters)
        forgetPassword(*p, e);
    forgetSecret(p->team.keychainKey(p->name), p->team.passwordInKeychain);
    const int index = m_profile->currentIndex();
    m_profiles.removeAt(index);
    m_profile->removeItem(index);
    save();
    showProfile();
}

void ConnectionsDialog::addMaster()
{
    if (!current())
        addProfile();
    ConnectionProfile* p = current();
    if (!p)
        return;
    ConnectionEditor editor(MasterEntry(), this);
    if (editor.exec() != QDialog::Accepted)
        return;
    p->masters << editor.entry();
    save();
    if (!editor.password().isEmpty())
        storePassword(p->name, int(p->masters.size()) - 1, editor.password());
    showProfile();
}

void ConnectionsDialog::addSeveralMasters()
{
    if (!current())
        addProfile();
    ConnectionProfile* p = current();
    if (!p)
        return;
    PasteMastersDialog paste(this);
    if (paste.exec() != QDialog::Accepted)
        return;
    for (const MasterEntry& e : paste.masters()) {
        bool known = false;
        for (const MasterEntry& m : std::as_const(p->masters))
            known = known || m.url == e.url;
        if (!known)
            p->masters << e;
    }
    save();
    showProfile();
}

QString ConnectionsDialog::quorumText(int masters)
{
    if (masters <= 0)
        return tr("No masters yet: add them with Add master… or Add several….");
    // The exact count, as the quorum diagram and lockctl say it: N/2+1 of N.
    const int needed = masters / 2 + 1;
    return masters == 1 ? tr("1 master: Redlock needs it to answer.")
                        : tr("%1 masters: Redlock needs %2 of %1.").arg(masters).arg(needed);
}

void ConnectionsDialog::editMaster()
{
    ConnectionProfile* p = current();
    const int row = m_table->currentRow();
    if (!p || row < 0 || row >= p->masters.size())
        return;
    ConnectionEditor editor(p->masters.at(row), this);
    if (editor.exec() != QDialog::Accepted)
        return;
    const QString oldKey = p->masters.at(row).keychainKey(p->name);
    p->masters[row] = editor.entry();
    if (p->masters.at(row).keychainKey(p->name) != oldKey) {
        forgetSecret(oldKey, p->masters.at(row).passwordInKeychain);
        p->masters[row].passwordInKeychain = false; // its key moved with the URL: ask again
    }
    save();
    if (!editor.password().isEmpty())
        storePassword(p->name, row, editor.password());
    showProfile();
}

void ConnectionsDialog::removeMaster()
{
    ConnectionProfile* p = current();
    const int row = m_table->currentRow();
    if (!p || row < 0 || row >= p->masters.size())
        return;
    forgetPassword(*p, p->masters.at(row));
    p->masters.removeAt(row);
    save();
    showProfile();
}

void ConnectionsDialog::editTeamDatabase()
{
    if (!current())
        addProfile();
    ConnectionProfile* p = current();
    if (!p)
        return;
    TeamDatabaseEditor editor(p->team, this);
    if (editor.exec() != QDialog::Accepted)
        return;
    const QString key = p->team.keychainKey(p->name);
    if (editor.entry().url != p->team.url || editor.entry().isEmpty())
        forgetSecret(key,
                     p->team.passwordInKeychain); // another database, or none: the old one's password goes
    p->team = editor.entry();
    save();
    if (!editor.password().isEmpty() && !p->team.isEmpty())
        storeSecret(p->name, key, editor.password(), [](ConnectionProfile& profile, bool inKeychain) {
            profile.team.passwordInKeychain = inKeychain;
        });
    showProfile();
}

void ConnectionsDialog::forgetPassword(const ConnectionProfile& profile, const MasterEntry& master)
{
    forgetSecret(master.keychainKey(profile.name), master.passwordInKeychain);
}

void ConnectionsDialog::forgetSecret(const QString& key, bool inKeychain)
{
    if (inKeychain)
        SecretStore::remove(key);
    SecretStore::forgetSessionSecret(key);
}

void ConnectionsDialog::storePassword(const QString& profile, int master, const QString& password)
{
    storeSecret(profile,
                m_profiles.value(m_profile->currentIndex()).masters.value(master).keychainKey(profile),
                password, [master](ConnectionProfile& p, bool inKeychain) {
                    if (master < p.masters.size())
                        p.masters[master].passwordInKeychain = inKeychain;
                });
}

void ConnectionsDialog::storeSecret(const QString& profile, const QString& key, const QString& password,
                                    const std::function<void(ConnectionProfile&, bool)>& kept)
{
    m_message->setText(tr("Saving the password in the keychain…"));
    SecretStore::write(
        key, password, this, [this, key, password, profile, kept](const QString& error, bool noBackend) {
            if (!error.isEmpty())
                SecretStore::keepForSession(key, password);
            for (ConnectionProfile& p : m_profiles) {
                if (p.name != profile)
                    continue;
                kept(p, error.isEmpty());
                save();
            }
            showProfile();
            if (error.isEmpty())
                m_message->setText(tr("Password saved in the system keychain."));
            else if (noBackend)
                m_message->setText(
                    tr("No keychain service is reachable (%1): the password is kept for this session only, "
                       "not saved. To keep it, set it in an environment variable and enter that variable's "
                       "name beside the password.")
                        .arg(error));
            else
                m_message->setText(
                    tr("The keychain refused the password (%1): it is kept for this session only, not saved.")
                        .arg(error));
        });
}

void ConnectionsDialog::connectProfile()
{
    const ConnectionProfile* p = current();
    if (!p)
        return;
    const ConnectionProfile profile = *p;
    auto passwords = std::make_shared<QHash<QString, QString>>();
    auto left = std::make_shared<int>(0);
    auto finish = [this, profile, passwords] {
        Result<LockScopeConfig> config = ProfileStore::toConfig(profile, *passwords);
        if (!config) {
            m_message->setText(config.error().message);
            return;
        }
        m_chosen = *config;
        m_chosenLocked = profile.readOnlyLocked;
        m_chosenPatterns = profile.patterns;
        m_chosenScanRate = profile.scanRate;
        m_chosenName = profile.name;
        accept();
    };
    // The masters' passwords by their URLs, and the team database's by its own.
    QList<std::pair<QString, QString>> inKeychain; // URL, keychain key
    const auto collect = [&](const QString& url, const QString& key, bool keychain, const QString& env) {
        if (keychain)
            inKeychain.append({url, key});
        else if (const QString kept = SecretStore::sessionSecret(key); env.isEmpty() && !kept.isEmpty())
            passwords->insert(url, kept);
    };
    for (const MasterEntry& e : profile.masters)
        collect(e.url, e.keychainKey(profile.name), e.passwordInKeychain, e.passwordEnv);
    if (!profile.team.isEmpty())
        collect(profile.team.url, profile.team.keychainKey(profile.name), profile.team.passwordInKeychain,
                profile.team.passwordEnv);
    *left = int(inKeychain.size());
    if (*left == 0) {
        finish();
        return;
    }
    m_connect->setEnabled(false);
    m_message->setText(tr("Reading passwords from the keychain…"));
    for (const auto& [url, key] : std::as_const(inKeychain)) {
        SecretStore::read(
            key, this,
            [this, url = url, passwords, left, finish](const QString& secret, const QString& error, bool) {
                if (!error.isEmpty())
                    m_message->setText(tr("Keychain: %1 (%2)").arg(error, url));
                passwords->insert(url, secret);
                if (--*left == 0) {
                    m_connect->setEnabled(true);
                    finish();
                }
            });
    }
}

} // namespace lockscope
