// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

namespace lockscope {

// The VALUES of a multi-row INSERT for PostgreSQL, written as literals: numbers, NULL, bytes as
// decode('<hex>', 'hex'), text as an E'' string with its backslashes and quotes doubled (read the
// same whatever standard_conforming_strings says). Text is the recording's own (escaped server
// bytes, which hold no NUL; one that did would be cut by PostgreSQL's text, so it is escaped).
class SqlRowText
{
public:
    void reserve(qsizetype bytes) { m_sql.reserve(bytes); }
    void append(const char* sql) { m_sql.append(sql); }
    void beginRow(bool first)
    {
        m_sql.append(first ? "(" : ",(");
        m_firstValue = true;
    }
    void endRow() { m_sql.append(')'); }
    void null() { separate().append("NULL"); }
    void number(qint64 value) { separate().append(QByteArray::number(value)); }
    void bytes(const QByteArray& value);
    // Empty: NULL.
    void text(const QString& value);
    QString statement() const { return QString::fromUtf8(m_sql); }

private:
    QByteArray& separate()
    {
        if (!m_firstValue)
            m_sql.append(',');
        m_firstValue = false;
        return m_sql;
    }

    QByteArray m_sql;
    bool m_firstValue = true;
};

} // namespace lockscope
