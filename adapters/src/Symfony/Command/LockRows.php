<?php

declare(strict_types=1);

namespace RedisLock\Symfony\Command;

use RedisLock\Internal\LockTable;
use RedisLock\Internal\Server;
use Symfony\Component\Console\Helper\Table;
use Symfony\Component\Console\Output\OutputInterface;

/**
 * What the redis-lock:* commands share: the extension's listing calls on the
 * commands' server and prefix, and the lock entries (RedisLock::locks(),
 * RedisLock::describe(): docs/operating-symfony.md names their fields) as
 * table rows, in the words of RedisLock\Internal\LockTable (shared with
 * the Laravel commands).
 *
 * @internal
 */
final class LockRows
{
    public function __construct(private ?string $server = null, private ?string $prefix = null)
    {
    }

    /** @return list<array<string, mixed>> the locks matching $pattern, at most $limit */
    public function locks(string $pattern, int $limit): array
    {
        self::needListing();

        return $this->call(static fn (): array => \RedisLock::locks($pattern, $limit));
    }

    /** @return array<string, mixed>|null */
    public function describe(string $key): ?array
    {
        self::needListing();

        return $this->call(static fn (): ?array => \RedisLock::describe($key));
    }

    /**
     * @template T
     * @param \Closure(): T $call
     * @return T
     */
    public function call(\Closure $call): mixed
    {
        return Server::call($this->server, $call, $this->prefix);
    }

    /** The list's table: one row per lock, the most waited-for first, then the oldest (LockTable's order and words). */
    public static function table(OutputInterface $output, array $locks, float $now): Table
    {
        $table = new Table($output);
        $table->setHeaders(['Key', 'Kind', 'Holders', 'Held for', 'TTL', 'Fence', 'Waiters', 'Longest wait']);
        foreach (LockTable::sort($locks) as $lock) {
            $longest = LockTable::longestWait($lock);
            $table->addRow([
                $lock['key'],
                $lock['kind'],
                implode("\n", array_map([self::class, 'holder'], $lock['holders'])) ?: '-',
                LockTable::age(LockTable::heldSince($lock), $now),
                LockTable::duration($lock['ttl_ms']),
                $lock['fence'] ?? '-',
                LockTable::waiting($lock),
                $longest === null ? '-' : LockTable::duration($longest),
            ]);
        }

        return $table;
    }

    /** A holder or waiter: host:pid and label (LockTable::who()), with its mode or permits. */
    public static function holder(array $who): string
    {
        $text = LockTable::who($who);
        if (($who['mode'] ?? null) !== null) {
            $text .= ' (' . $who['mode'] . ')';
        }
        if (($who['weight'] ?? null) !== null) {
            $text .= sprintf(' (%d of %s permits)', $who['weight'], $who['limit'] ?? '?');
        }

        return $text;
    }

    private static function needListing(): void
    {
        if (!method_exists(\RedisLock::class, 'locks')) {
            throw new \RuntimeException('this build of the redis_lock extension cannot list locks (RedisLock::locks() is missing): upgrade it');
        }
    }
}
