#pragma once

#include "export/jsontext.h"

#include <string>

namespace lockscope {

// One JSON object's members written into a buffer in the order given (callers give QJsonObject's
// order, sorted by name): the commas and the braces in one place.
class JsonMembers
{
public:
    explicit JsonMembers(std::string& out) : m_out(out) { m_out += '{'; }
    ~JsonMembers() { m_out += '}'; }
    JsonMembers(const JsonMembers&) = delete;
    JsonMembers& operator=(const JsonMembers&) = delete;

    // `"key":`, after a comma when it is not the first; the value is the caller's to write.
    template <size_t N> std::string& key(const char (&name)[N])
    {
        if (m_any)
            m_out += ',';
        m_any = true;
        JsonText::appendKey(m_out, name);
        return m_out;
    }
    template <size_t N> void text(const char (&name)[N], QStringView value)
    {
        JsonText::appendString(key(name), value);
    }
    // escapeBytes(value), as a string.
    template <size_t N> void bytes(const char (&name)[N], const QByteArray& value)
    {
        JsonText::appendBytes(key(name), value);
    }
    template <size_t N> void number(const char (&name)[N], qint64 value)
    {
        JsonText::appendNumber(key(name), value);
    }
    template <size_t N> void boolean(const char (&name)[N], bool value)
    {
        JsonText::appendBool(key(name), value);
    }

private:
    std::string& m_out;
    bool m_any = false;
};

} // namespace lockscope
