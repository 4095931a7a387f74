<?php

declare(strict_types=1);

namespace RedisLock\Internal;

/**
 * Releases at the end of the request the locks whose framework release can no
 * longer run there. The adapters' locks are owner-token locks that the
 * extension keeps across requests (they are the owner's, not the process'),
 * and after a fatal error (memory_limit, max_execution_time) PHP runs no
 * finally block and no destructor, only shutdown functions. Two kinds:
 *
 * - during(): a lock held for a callback (Laravel's get()/block() with a
 *   callback, funnels): released at shutdown when the callback has not
 *   returned, i.e. the request ended inside it (fatal error, exit()). The
 *   framework releases it in a finally block, which that ending skips.
 * - untilDestructed(): a lock whose framework object releases it in its
 *   destructor (symfony's Lock and Semaphore with autoRelease): released at
 *   shutdown only after a fatal error, unless that object released it before
 *   (forget()). After a fatal error PHP runs no destructor (after
 *   memory_limit it even frees the objects of the aborted calls without
 *   one); otherwise it runs the destructor after the shutdown functions, in
 *   the order the application expects, and nothing is done here.
 *
 * Entries of a parent process are never acted on in a forked child (a child
 * that exits must not release what its parent still holds). Each release is
 * the owner-checked one, so a lock that meanwhile expired and went to someone
 * else is left alone; one that fails (Redis unreachable) is left to its TTL.
 *
 * @internal
 */
final class ShutdownRelease
{
    /** Errors after which PHP bails out: no finally block, no destructor runs. */
    private const FATAL = E_ERROR | E_PARSE | E_CORE_ERROR | E_COMPILE_ERROR | E_USER_ERROR | E_RECOVERABLE_ERROR;

    /** @var array<int|string, array{\Closure(): mixed, int, ?\WeakReference}> release, pid, object */
    private static array $pending = [];

    private static int $next = 0;

    private static bool $registered = false;

    /** Freed before releasing: room to work in after memory_limit was exhausted. */
    private static ?string $reserve = null;

    /**
     * Runs $callback; $release runs when it returns or throws (as the
     * frameworks' finally does) and at shutdown if the request ends inside it.
     *
     * @template T
     * @param \Closure(): mixed $release
     * @param callable(): T $callback
     * @return T
     */
    public static function during(\Closure $release, callable $callback): mixed
    {
        $id = ++self::$next;
        self::add($id, $release, null);
        try {
            return $callback();
        } finally {
            unset(self::$pending[$id]);
            $release();
        }
    }

    /**
     * $release runs at shutdown after a fatal error unless forget($id) is
     * called first (the lock's release by $object); $id names the lock (a
     * later call with the same $id replaces it).
     *
     * @param \Closure(): mixed $release
     */
    public static function untilDestructed(string $id, object $object, \Closure $release): void
    {
        // Entries of objects that are gone are dropped, so that a long-running
        // worker does not accumulate them: while no fatal error has happened,
        // an object is gone only after its destructor ran.
        foreach (self::$pending as $key => [, , $ref]) {
            if ($ref !== null && $ref->get() === null) {
                unset(self::$pending[$key]);
            }
        }
        self::add('o:' . $id, $release, \WeakReference::create($object));
    }

    /** Forgets the lock $id (released by its framework object). */
    public static function forget(string $id): void
    {
        unset(self::$pending['o:' . $id]);
    }

    /**
     * The framework object that called into the store ($class: symfony's Lock
     * or Semaphore) when it releases in its destructor (autoRelease); null
     * otherwise, also where the framework keeps that setting elsewhere.
     */
    public static function autoReleasingCaller(string $class): ?object
    {
        foreach (debug_backtrace(DEBUG_BACKTRACE_PROVIDE_OBJECT, 8) as $frame) {
            $object = $frame['object'] ?? null;
            if ($object instanceof $class) {
                if (!property_exists($object, 'autoRelease')) {
                    return null;
                }
                $autoRelease = \Closure::bind(fn () => $this->autoRelease, $object, $class)();

                return $autoRelease === true ? $object : null;
            }
        }

        return null;
    }

    /** The shutdown function. @internal */
    public static function run(): void
    {
        self::$reserve = null;
        $pending = self::$pending;
        self::$pending = [];
        $error = error_get_last();
        // An uncaught exception is reported as E_ERROR too, but PHP still runs
        // destructors after it: only a real bail-out counts.
        $fatal = $error !== null && ($error['type'] & self::FATAL) !== 0 && !str_starts_with($error['message'], 'Uncaught ');
        $pid = getmypid();
        foreach (array_reverse($pending, true) as [$release, $owner, $ref]) {
            if ($owner !== $pid) {
                continue;
            }
            if ($ref !== null && !$fatal) {
                continue;
            }
            try {
                $release();
            } catch (\Throwable) {
                // The lock's TTL or lease ends it.
            }
        }
    }

    /** @param \Closure(): mixed $release */
    private static function add(int|string $id, \Closure $release, ?\WeakReference $ref): void
    {
        if (!self::$registered) {
            self::$registered = true;
            self::$reserve = str_repeat("\0", 32768);
            register_shutdown_function([self::class, 'run']);
        }
        self::$pending[$id] = [$release, getmypid(), $ref];
    }
}
