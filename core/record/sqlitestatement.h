// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

struct sqlite3;
struct sqlite3_stmt;

class QSqlDatabase;

namespace lockscope {

// One prepared statement on the SQLite handle under a Qt SQL connection, bound and stepped through
// SQLite's C API. For the recorder's hot path only: Qt SQL's binding (a QVariant, a placeholder
// name made and looked up per value) cost more than SQLite's insert itself at 5k events/s.
class SqliteStatement final
{
    Q_DISABLE_COPY_MOVE(SqliteStatement)

public:
    SqliteStatement() = default;
    ~SqliteStatement();

    // The connection's sqlite3 handle; null when it is not an open QSQLITE connection.
    static sqlite3* handle(const QSqlDatabase& db);

    bool prepare(sqlite3* db, const char* sql);
    // Parameters count from 1, as in SQLite.
    void bindInt(int i, qint64 value);
    void bindNull(int i);
    void bindBlob(int i, const QByteArray& value); // copied: the event may go before the step
    // Not copied: `value` must stay alive and unchanged until this statement's next step is done
    // (the writer binds a batch's events, which outlive their statement; a copy each was a malloc
    // and a memcpy per token and name).
    void bindBlobInPlace(int i, const QByteArray& value);
    void bindText(int i, const QString& value); // empty: NULL
    // Runs the statement to its first row (true) or its end (true); false on an error.
    bool step();
    bool hasRow() const { return m_row; }
    qint64 columnInt(int column) const;
    bool columnIsNull(int column) const;
    QByteArray columnBlob(int column) const;
    // The column's bytes where SQLite keeps them: valid until the next step, no copy.
    QByteArrayView columnView(int column) const;
    // Of the connection, after this statement's step: rows it changed, the row id it inserted.
    int changes() const;
    qint64 lastInsertId() const;
    // Ready for new bindings.
    void reset();
    QString error() const;

private:
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_statement = nullptr;
    bool m_row = false;
};

} // namespace lockscope
