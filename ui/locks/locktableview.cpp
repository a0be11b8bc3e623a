// SPDX-License-Identifier: Apache-2.0
#include "locks/locktableview.h"

#include "locks/lockfilterproxy.h"
#include "locks/locktabledelegate.h"
#include "locks/locktablemodel.h"
#include "locks/selectionkeeper.h"
#include "widgets/repaintpacer.h"
#include "widgets/statusstyle.h"

#include <QEvent>
#include <QHeaderView>
#include <QStyle>

namespace lockscope {

namespace {
// The countdown's tick.
constexpr int tickMs = 100;
// The "expiring soon" filter is re-evaluated this often; the countdown itself every tick.
constexpr int ticksPerFilterCheck = 10;
} // namespace

LockTableView::LockTableView(QWidget* parent)
    : QTableView(parent), m_keeper(new SelectionKeeper(this)),
      m_pacer(new RepaintPacer(viewport(), tickMs, this))
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
    fitToFont();
}

void LockTableView::changeEvent(QEvent* event)
{
    QTableView::changeEvent(event);
    // View > Zoom: rows and columns follow the text (both are fixed sizes, measured from it).
    if (event->type() == QEvent::FontChange && model())
        fitToFont();
}

void LockTableView::fitToFont()
{
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    // Sized once from the header and the longest value a column can show, never from the contents
    // of 100k rows: a status, a format or a countdown is never cut at the default size.
    const QFontMetrics fm = fontMetrics();
    const int margins = 2 * (style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, this) + 1) + 8;
    auto widest = [&fm](const QStringList& texts) {
        int w = 0;
        for (const QString& t : texts)
            w = qMax(w, fm.horizontalAdvance(t));
        return w;
    };
    QStringList statuses;
    for (LockStatus s : {LockStatus::Held, LockStatus::Partial, LockStatus::Contested, LockStatus::Stuck,
                         LockStatus::Unknown})
        statuses << StatusStyle::statusText(s);
    QStringList formats;
    for (int f = 0; f <= int(LockFormat::LockScope); ++f)
        formats << lockFormatName(LockFormat(f));
    const int icon = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this) + 4;
    const int atRiskFlag = 16;
    auto fit = [&](int column, int contents) {
        const int header = fm.horizontalAdvance(model()->headerData(column, Qt::Horizontal).toString()) + 24;
        m_fitted[size_t(column)] = qMax(header, contents + margins);
        setColumnWidth(column, m_fitted[size_t(column)]);
    };
    fit(LockTableModel::ResourceColumn, fm.horizontalAdvance(QLatin1Char('m')) * 22);
    fit(LockTableModel::StatusColumn, widest(statuses) + icon + atRiskFlag);
    fit(LockTableModel::QuorumColumn, 110);
    fit(LockTableModel::OwnerColumn, fm.horizontalAdvance(QLatin1Char('m')) * 14);
    fit(LockTableModel::FormatColumn, widest(formats));
    fit(LockTableModel::TtlColumn, widest({QStringLiteral("00 h 00 m"), QStringLiteral("00 m 00 s"),
                                           QStringLiteral("00.0 s"), tr("no expiry")}));
    fitToWidth();
}

void LockTableView::resizeEvent(QResizeEvent* event)
{
    QTableView::resizeEvent(event);
    fitToWidth();
}

bool LockTableView::viewportEvent(QEvent* event)
{
    // The viewport narrows without the view resizing when a vertical scroll bar appears.
    if (event->type() == QEvent::Resize)
        fitToWidth();
    return QTableView::viewportEvent(event);
}

void LockTableView::keyPressEvent(QKeyEvent* event)
{
    m_pacer->interacted();
    QTableView::keyPressEvent(event);
}

void LockTableView::scrollContentsBy(int dx, int dy)
{
    m_pacer->interacted();
    QTableView::scrollContentsBy(dx, dy);
}

void LockTableView::rowsInserted(const QModelIndex& parent, int start, int end)
{
    m_pacer->pace();
    QTableView::rowsInserted(parent, start, end);
}

void LockTableView::rowsAboutToBeRemoved(const QModelIndex& parent, int start, int end)
{
    m_pacer->pace();
    QTableView::rowsAboutToBeRemoved(parent, start, end);
}

void LockTableView::dataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                                const QList<int>& roles)
{
    m_pacer->pace();
    QTableView::dataChanged(topLeft, bottomRight, roles);
}

void LockTableView::fitToWidth()
{
    static_assert(LockTableModel::ColumnCount <= 8, "m_fitted has room for 8 columns");
    if (!model() || m_fitted[LockTableModel::ResourceColumn] == 0)
        return;
    const int m = fontMetrics().horizontalAdvance(QLatin1Char('m'));
    // The masters' dots, in the last column, which stretches but keeps at least its default size.
    int total = qMax(m * 6, horizontalHeader()->defaultSectionSize());
    for (int c = 0; c < LockTableModel::MastersColumn; ++c)
        total += isColumnHidden(c) ? 0 : m_fitted[size_t(c)];
    int excess = total - viewport()->width();
    // Who gives first, and how far: text cut in the middle (the tooltip has it whole) before the
    // resource's own name.
    const struct
    {
        int column;
        int floor;
    } givers[] = {{LockTableModel::OwnerColumn, m * 4},
                  {LockTableModel::FormatColumn, m * 5},
                  {LockTableModel::QuorumColumn, m * 6},
                  {LockTableModel::ResourceColumn, m * 10}};
    for (const auto& g : givers) {
        const int fitted = m_fitted[size_t(g.column)];
        const int give = qBound(0, excess, qMax(0, fitted - g.floor));
        setColumnWidth(g.column, fitted - give);
        excess -= give;
    }
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
