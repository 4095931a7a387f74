<?php

declare(strict_types=1);

namespace RedisLock\Laravel\Console;

use Illuminate\Console\Command;
use Illuminate\Console\Scheduling\Schedule;
use RedisLock\Internal\Server;
use RedisLock\Laravel\NativeLockProvider;
use Symfony\Component\Console\Formatter\OutputFormatter;

/**
 * What the redis-lock:* commands share: the redis_lock cache store they look
 * at (--store, else the default store when it is a redis_lock one, else the
 * first redis_lock store configured), and its locks by the names Laravel
 * gives them: a lock's name is its Redis key without redis_lock.prefix (or
 * the store's key_prefix) and without the store's prefix, the name
 * Cache::lock() was given.
 *
 * @internal
 */
abstract class LockCommand extends Command
{
    private ?NativeLockProvider $store = null;

    /** @var array<string, string>|null the schedule's mutex names => their tasks */
    private ?array $scheduled = null;

    protected function store(): NativeLockProvider
    {
        if ($this->store !== null) {
            return $this->store;
        }
        $config = $this->laravel['config'];
        $name = $this->option('store');
        if ($name === null || $name === '') {
            $stores = array_filter((array) $config->get('cache.stores', []), static fn ($s) => ($s['driver'] ?? null) === 'redis_lock');
            $default = $config->get('cache.default');
            $name = isset($stores[$default]) ? $default : array_key_first($stores);
            if ($name === null) {
                throw new \RuntimeException('No cache store uses the redis_lock driver (config/cache.php): name one with --store.');
            }
        }
        $store = $this->laravel['cache']->store($name)->getStore();
        if (!$store instanceof NativeLockProvider) {
            throw new \RuntimeException("The cache store [$name] does not use the redis_lock driver.");
        }

        return $this->store = $store;
    }

    /**
     * Runs an extension call on the store's server, with its key prefix.
     *
     * @template T
     * @param \Closure(): T $call
     * @return T
     */
    protected function onServer(\Closure $call): mixed
    {
        $store = $this->store();

        return Server::call($store->getServer(), $call, $store->getKeyPrefix());
    }

    /** The store's prefix (before every lock name). */
    protected function prefix(): string
    {
        $store = $this->store();

        return method_exists($store, 'getPrefix') ? (string) $store->getPrefix() : '';
    }

    /**
     * The store's locks whose name matches $pattern (a glob), each entry of
     * RedisLock::locks() with the lock's 'name' and 'what' it is.
     *
     * @return list<array>
     */
    protected function locks(string $pattern, int $limit): array
    {
        $glob = addcslashes($this->prefix(), '*?[]\\') . $pattern;

        return array_map(fn (array $lock): array => $this->named($lock), $this->onServer(static fn (): array => \RedisLock::locks($glob, $limit)));
    }

    /** One lock by its name, or null when nobody holds it nor waits for it. */
    protected function lock(string $name): ?array
    {
        $key = $this->prefix() . $name;
        $lock = $this->onServer(static fn (): ?array => \RedisLock::describe($key));

        return $lock === null ? null : $this->named($lock);
    }

    /** $text shown as it is inside the console's <tags>. */
    protected function escape(string $text): string
    {
        return OutputFormatter::escape($text);
    }

    private function named(array $lock): array
    {
        $prefix = $this->prefix();
        $name = str_starts_with($lock['key'], $prefix) ? substr($lock['key'], strlen($prefix)) : $lock['key'];

        return ['name' => $name, 'what' => LockNames::what($name, $this->scheduled())] + $lock;
    }

    /** @return array<string, string> */
    private function scheduled(): array
    {
        if ($this->scheduled !== null) {
            return $this->scheduled;
        }
        $this->scheduled = [];
        if (!class_exists(Schedule::class) || !$this->laravel->bound(Schedule::class)) {
            return $this->scheduled;
        }
        try {
            foreach ($this->laravel->make(Schedule::class)->events() as $event) {
                $this->scheduled[$event->mutexName()] = (string) $event->getSummaryForDisplay();
            }
        } catch (\Throwable) {
            // The schedule is a nicety here: a lock is listed by its name without it.
        }

        return $this->scheduled;
    }
}
