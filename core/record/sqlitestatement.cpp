// SPDX-License-Identifier: Apache-2.0
#include "record/sqlitestatement.h"

#include <QSqlDatabase>
#include <QSqlDriver>
#include <QVariant>

#include <sqlite3.h>

namespace lockscope {

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_statement);
}

sqlite3* SqliteStatement::handle(const QSqlDatabase& db)
{
    const QVariant v = db.driver() ? db.driver()->handle() : QVariant();
    if (!v.isValid() || qstrcmp(v.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3* const*>(v.constData());
}

bool SqliteStatement::prepare(sqlite3* db, const char* sql)
{
    sqlite3_finalize(m_statement);
    m_statement = nullptr;
    m_db = db;
    return db &&
           sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &m_statement, nullptr) == SQLITE_OK;
}

void SqliteStatement::bindInt(int i, qint64 value)
{
    sqlite3_bind_int64(m_statement, i, value);
}

void SqliteStatement::bindNull(int i)
{
    sqlite3_bind_null(m_statement, i);
}

void SqliteStatement::bindBlob(int i, const QByteArray& value)
{
    // A zero-length blob, not NULL, for an empty value (as Qt bound an empty QByteArray).
    sqlite3_bind_blob64(m_statement, i, value.isNull() ? "" : value.constData(), sqlite3_uint64(value.size()),
                        SQLITE_TRANSIENT);
}

void SqliteStatement::bindBlobInPlace(int i, const QByteArray& value)
{
    sqlite3_bind_blob64(m_statement, i, value.isNull() ? "" : value.constData(), sqlite3_uint64(value.size()),
                        SQLITE_STATIC);
}

void SqliteStatement::bindText(int i, const QString& value)
{
    if (value.isEmpty()) {
        sqlite3_bind_null(m_statement, i);
        return;
    }
    sqlite3_bind_text16(m_statement, i, value.utf16(), int(value.size() * sizeof(char16_t)),
                        SQLITE_TRANSIENT);
}

bool SqliteStatement::step()
{
    const int rc = m_statement ? sqlite3_step(m_statement) : SQLITE_MISUSE;
    m_row = rc == SQLITE_ROW;
    return rc == SQLITE_ROW || rc == SQLITE_DONE;
}

qint64 SqliteStatement::columnInt(int column) const
{
    return sqlite3_column_int64(m_statement, column);
}

bool SqliteStatement::columnIsNull(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

QByteArray SqliteStatement::columnBlob(int column) const
{
    const void* data = sqlite3_column_blob(m_statement, column);
    return QByteArray(static_cast<const char*>(data), sqlite3_column_bytes(m_statement, column));
}

QByteArrayView SqliteStatement::columnView(int column) const
{
    const void* data = sqlite3_column_blob(m_statement, column);
    return QByteArrayView(static_cast<const char*>(data), sqlite3_column_bytes(m_statement, column));
}

int SqliteStatement::changes() const
{
    return m_db ? sqlite3_changes(m_db) : 0;
}

qint64 SqliteStatement::lastInsertId() const
{
    return m_db ? sqlite3_last_insert_rowid(m_db) : 0;
}

void SqliteStatement::reset()
{
    sqlite3_reset(m_statement);
    m_row = false;
}

QString SqliteStatement::error() const
{
    return m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QStringLiteral("no database");
}

} // namespace lockscope
