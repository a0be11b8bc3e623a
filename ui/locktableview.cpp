#include "locktableview.h"

#include "lockfilterproxy.h"
#include "locktabledelegate.h"
#include "locktablemodel.h"
#include "selectionkeeper.h"

#include <QHeaderView>

namespace lockscope {

namespace {
// The "expiring soon" filter is re-evaluated this often; the countdown itself every tick.
constexpr int ticksPerFilterCheck = 10;
} // namespace

LockTableView::LockTableView(QWidget* parent) : QTableView(parent), m_keeper(new SelectionKeeper(this))
{
    connect(m_keeper, &SelectionKeeper::changed, this, &LockTableView::selectedResourceChanged);
    setItemDelegate(new LockTableDelegate(this));
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setSortingEnabled(true);
    setAlternatingRowColors(true);
    setShowGrid(false);
    setWordWrap(false);
    setContextMenuPolicy(Qt::CustomContextMenu);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    verticalHeader()->hide();
    horizontalHeader()->setSectionsMovable(true);
    horizontalHeader()->setHighlightSections(false);
    horizontalHeader()->setStretchLastSection(true);
    m_countdown.setInterval(tickMs);
    connect(&m_countdown, &QTimer::timeout, this, &LockTableView::tick);
    m_countdown.start();
}

void LockTableView::setProxy(LockFilterProxy* proxy)
{
    m_proxy = proxy;
    m_keeper->watch(proxy); // before setModel: see SelectionKeeper::watch
    setModel(proxy);
    m_keeper->attach(selectionModel());
    horizontalHeader()->setSortIndicator(LockTableModel::ResourceColumn, Qt::AscendingOrder);
    // Sized once from the header and a typical value, never from the contents of 100k rows.
    const QFontMetrics fm = fontMetrics();
    setColumnWidth(LockTableModel::ResourceColumn, fm.horizontalAdvance(QLatin1Char('m')) * 24);
    setColumnWidth(LockTableModel::StatusColumn, fm.horizontalAdvance(QStringLiteral("contested")) + 48);
    setColumnWidth(LockTableModel::QuorumColumn, 130);
    setColumnWidth(LockTableModel::OwnerColumn, fm.horizontalAdvance(QLatin1Char('m')) * 16);
    setColumnWidth(LockTableModel::FormatColumn,
                   fm.horizontalAdvance(QStringLiteral("python-redis-lock")) + 16);
    setColumnWidth(LockTableModel::TtlColumn, fm.horizontalAdvance(QStringLiteral("00 m 00 s")) + 24);
}

QRect LockTableView::countdownRect() const
{
    const int column = LockTableModel::TtlColumn;
    return QRect(columnViewportPosition(column), 0, columnWidth(column), viewport()->height());
}

void LockTableView::tick()
{
    if (!model() || model()->rowCount() == 0)
        return;
    if (++m_ticks % ticksPerFilterCheck == 0 && m_proxy)
        m_proxy->recheckTimeFilters();
    if (isVisible() && !isColumnHidden(LockTableModel::TtlColumn))
        viewport()->update(countdownRect());
    emit countdownTicked();
}

QByteArray LockTableView::currentResource() const
{
    return m_keeper->resource();
}

void LockTableView::selectResource(const QByteArray& resource)
{
    if (!m_proxy || !m_proxy->lockModel())
        return;
    const int sourceRow = m_proxy->lockModel()->rowOf(resource);
    if (sourceRow < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_proxy->lockModel()->index(sourceRow, 0));
    if (!index.isValid())
        return;
    selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    scrollTo(index);
}

} // namespace lockscope
