<?php

declare(strict_types=1);

namespace RedisLock\Laravel\Console;

use RedisLock\Internal\ListedRelease;
use RedisLock\Internal\LockTable;
use Symfony\Component\Console\Formatter\OutputFormatter;

/**
 * php artisan redis-lock:release {name} [--owner=TOKEN] [--force]: frees a
 * stuck lock of the redis_lock store by the name redis-lock:list shows (a
 * unique job's, a WithoutOverlapping job's, a scheduled task's).
 *
 * It shows who holds the lock and asks first (--no-interaction answers yes).
 * Then it releases the holders it showed, each by its token, so that a lock
 * that changed hands meanwhile is left to its new holder; --owner=TOKEN
 * releases only that holder. --force asks nothing and releases whoever
 * holds the lock at that moment. A released lock goes to its first waiter,
 * as at any release. Exit code 1 when nothing was released.
 */
class ReleaseLockCommand extends LockCommand
{
    protected $signature = 'redis-lock:release
        {name : The lock\'s name, as redis-lock:list shows it}
        {--store= : The redis_lock cache store (default: the default store, or the first redis_lock one)}
        {--owner= : Release it only if this token (redis-lock:show) holds it}
        {--force : Release it whoever holds it, without asking}';

    protected $description = 'Release a stuck lock of the redis_lock store';

    public function handle(): int
    {
        $name = (string) $this->argument('name');
        $owner = $this->option('owner');
        $lock = $this->lock($name);
        if ($lock === null || $lock['holders'] === []) {
            $this->components->warn("Nobody holds the lock [{$this->escape($name)}].");

            return self::FAILURE;
        }
        $holders = $owner === null ? $lock['holders'] : array_values(array_filter($lock['holders'], static fn (array $h): bool => $h['token'] === $owner));
        if ($holders === []) {
            $this->components->error("The token [{$this->escape((string) $owner)}] does not hold the lock [{$this->escape($name)}].");

            return self::FAILURE;
        }
        $force = (bool) $this->option('force');
        if (!$force) {
            $now = microtime(true);
            $this->components->bulletList(array_map(static fn (array $h): string => OutputFormatter::escape(LockTable::who($h) . ' (token ' . $h['token'] . '), held for ' . LockTable::age($h['since'] ?? null, $now)), $holders));
            if (!$this->components->confirm("Release the lock [{$this->escape($name)}]" . ($lock['what'] === '' ? '' : " ({$this->escape($lock['what'])})") . '?', true)) {
                $this->components->warn('Nothing released.');

                return self::FAILURE;
            }
        }
        // --force without --owner: whoever holds it at this moment; else the holders shown.
        $released = ListedRelease::release($lock, $force && $owner === null ? null : $holders, fn (\Closure $call): bool => $this->onServer($call));
        if ($released === 0) {
            $this->components->error("The lock [{$this->escape($name)}] changed hands or was released meanwhile: nothing released.");

            return self::FAILURE;
        }
        $next = $lock['waiters'] === [] ? '' : ' Its first waiter (' . LockTable::who($lock['waiters'][0]) . ') takes it now.';
        $this->components->info("Released the lock [{$this->escape($name)}]" . ($released > 1 ? " ($released holders)" : '') . '.' . $this->escape($next));

        return self::SUCCESS;
    }
}
