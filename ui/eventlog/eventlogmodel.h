// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>

namespace lockscope {

// What happened, newest last: keyspace events, master state changes, actions and errors. Bounded:
// the oldest entries leave as new ones come, so a flood cannot grow the window without limit.
class EventLogModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventLogModel)

public:
    enum class Kind
    {
        Keyspace,
        Master,
        Action,
        Error,
        Notification, // a notification rule fired (a desktop notification went with it)
    };
    enum Column
    {
        TimeColumn,
        KindColumn,
        SourceColumn,
        MessageColumn,
        ColumnCount
    };
    struct Entry
    {
        QDateTime time;
        Kind kind = Kind::Action;
        QString source;
        QString message;
    };

    explicit EventLogModel(int capacity = 5000, QObject* parent = nullptr);

    void add(Kind kind, const QString& source, const QString& message,
             const QDateTime& time = QDateTime::currentDateTime());
    void addAll(const QList<Entry>& entries);
    const Entry& entry(int row) const { return m_entries.at(row); }
    int capacity() const { return m_capacity; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString kindName(Kind kind);

private:
    QList<Entry> m_entries;
    int m_capacity;
};

} // namespace lockscope
