<?php

declare(strict_types=1);

namespace RedisLock\Symfony\Profiler;

/**
 * What the stores (RedisLockStore, RedisSemaphoreStore) tell about each lock
 * they take, for the profiler's panel. The stores hold a NullLockRecorder
 * unless the bundle config gives them the profiler's LockProfile: then,
 * and only then, they time their calls and look up the queue position of an
 * acquisition that has to wait (one extra round trip).
 *
 * $key is the lock's name as the application gave it (without prefix);
 * $token the Key's owner token, only to match a release to its acquisition
 * (never shown, never stored with the profile).
 */
interface LockRecorder
{
    /** false: the stores skip timing and the position look-up altogether. */
    public function isEnabled(): bool;

    /**
     * $token now holds $key, after $waitMs (the whole call); $position: how
     * many waiters were queued ahead when it began to wait (null: it did not
     * wait); $fence: the hold's fencing token, if one was issued.
     */
    public function acquired(string $key, string $kind, string $token, float $waitMs, ?int $position, ?int $fence = null): void;

    /** The acquisition gave up (a one-shot attempt found it held, or its wait ran out). */
    public function timedOut(string $key, string $kind, string $token, float $waitMs, ?int $position): void;

    /** $token released $key. */
    public function released(string $key, string $token): void;

    /** $key turned out not to be $token's any more (expired, or released from elsewhere). */
    public function lost(string $key, string $token): void;
}
