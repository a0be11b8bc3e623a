#pragma once

#include "keyobservation.h"
#include "recognizedlock.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace lockscope {

enum class ForceReleaseMode
{
    ExpectToken, // delete only where the token is still the one the admin saw
    AnyToken,    // delete whatever is there
};

// What an administrator asked for.
struct ForceReleaseRequest
{
    QByteArray resource;
    ForceReleaseMode mode = ForceReleaseMode::ExpectToken;
    QByteArray expectedToken;  // a string lock's value, a Redisson field, a semaphore member id
    QList<int> masters;        // indexes into the master set; empty: all of them
    bool forceUnknown = false; // act even on keys not recognised as locks
};

// One chosen master as read just before the deletion, and what it holds.
struct ForceReleaseTarget
{
    int index = 0;
    QString master; // URL without password
    KeyObservation observation;
    RecognizedLock lock;
    QString notALock; // why this key is no lock, empty when it is one (or absent)
};

// What a force-release would touch: shown to the admin for confirmation, then executed.
struct ForceReleasePlan
{
    ForceReleaseRequest request;
    QList<ForceReleaseTarget> targets; // chosen masters, in master order
    QString refusal;                   // first reason the key is not a lock; empty when it is one
    QByteArray tokenSeen;              // the token (or holder ids) on the first master that has the key
    QByteArray signalKey;              // python-redis-lock's lock-signal:<name>, when that is the format
    QByteArray redissonChannel;        // redisson_lock__channel:{name}, when that is the format

    bool anyPresent() const
    {
        for (const ForceReleaseTarget& t : targets)
            if (t.observation.present)
                return true;
        return false;
    }
};

} // namespace lockscope
