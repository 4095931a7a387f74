<?php

declare(strict_types=1);

namespace RedisLock\Symfony\Command;

use RedisLock\Internal\Server;
use Symfony\Component\Console\Helper\Table;
use Symfony\Component\Console\Output\OutputInterface;

/**
 * What the redis-lock:* commands share: the extension's listing calls on the
 * commands' server and prefix, and the lock entries (RedisLock::locks(),
 * RedisLock::describe(): docs/operating-symfony.md names their fields) as
 * table rows and human durations.
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

    /** The list's table: one row per lock, the most waited-for first, then the oldest. */
    public static function table(OutputInterface $output, array $locks, float $now): Table
    {
        usort($locks, static fn (array $a, array $b): int => [self::queued($b), self::heldSince($a) ?? $now] <=> [self::queued($a), self::heldSince($b) ?? $now]);
        $table = new Table($output);
        $table->setHeaders(['Key', 'Kind', 'Holders', 'Held for', 'TTL', 'Fence', 'Waiters', 'Longest wait']);
        foreach ($locks as $lock) {
            $since = self::heldSince($lock);
            $waited = array_filter(array_column($lock['waiters'], 'waited_ms'), 'is_int');
            $table->addRow([
                $lock['key'],
                $lock['kind'],
                implode("\n", array_map([self::class, 'holder'], $lock['holders'])) ?: '-',
                $since === null ? '-' : self::seconds($now - $since),
                self::ttl($lock['ttl_ms']),
                $lock['fence'] ?? '-',
                self::queued($lock),
                $waited === [] ? '-' : self::seconds(max($waited) / 1000),
            ]);
        }

        return $table;
    }

    /** How many wait in all (an entry lists the first 100 of them). */
    public static function queued(array $lock): int
    {
        return $lock['queued'] ?? \count($lock['waiters']);
    }

    /** A holder or waiter: host:pid, its mode / permits and label. */
    public static function holder(array $who): string
    {
        $text = ($who['host'] ?? '?') . ':' . ($who['pid'] ?? '?');
        if (($who['mode'] ?? null) !== null) {
            $text .= ' ' . $who['mode'];
        }
        if (($who['weight'] ?? null) !== null) {
            $text .= sprintf(' %d/%s', $who['weight'], $who['limit'] ?? '?');
        }
        if (($who['label'] ?? null) !== null && $who['label'] !== '') {
            $text .= ' [' . $who['label'] . ']';
        }

        return $text;
    }

    /** The oldest hold's start (Unix seconds), null when unknown. */
    public static function heldSince(array $lock): ?float
    {
        $since = array_filter(array_column($lock['holders'], 'since'), static fn ($s): bool => $s !== null);

        return $since === [] ? null : (float) min($since);
    }

    public static function ttl(?int $ms): string
    {
        return match (true) {
            $ms === null => '-',
            $ms < 0 => 'none',
            default => self::seconds($ms / 1000),
        };
    }

    /** 0.35 s, 12.0 s, 4 min 10 s, 2 h 5 min. */
    public static function seconds(float $seconds): string
    {
        $seconds = max(0.0, $seconds);
        if ($seconds < 60) {
            return sprintf('%.1f s', $seconds);
        }
        $whole = (int) $seconds;
        if ($whole < 3600) {
            return sprintf('%d min %d s', intdiv($whole, 60), $whole % 60);
        }

        return sprintf('%d h %d min', intdiv($whole, 3600), intdiv($whole % 3600, 60));
    }

    private static function needListing(): void
    {
        if (!method_exists(\RedisLock::class, 'locks')) {
            throw new \RuntimeException('this build of the redis_lock extension cannot list locks (RedisLock::locks() is missing): upgrade it');
        }
    }
}
