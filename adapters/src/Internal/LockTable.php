<?php

declare(strict_types=1);

namespace RedisLock\Internal;

/**
 * Words for the entries of RedisLock::locks() / describe(), shared by the
 * framework consoles: durations, who holds or waits (host:pid and label),
 * one summary row per lock, and the order a paged operator wants (most
 * waiters first, then the oldest hold). Plain strings: each console styles
 * them its own way.
 *
 * @internal
 */
final class LockTable
{
    /** Milliseconds as "850ms", "12.3s", "4m05s", "2h07m", "3d04h"; -1: "no expiry"; null: "-". */
    public static function duration(?int $ms): string
    {
        if ($ms === null) {
            return '-';
        }
        if ($ms < 0) {
            return 'no expiry';
        }
        if ($ms < 1000) {
            return $ms . 'ms';
        }
        if ($ms < 60_000) {
            return sprintf('%.1fs', $ms / 1000);
        }
        $s = intdiv($ms, 1000);
        if ($s < 3600) {
            return sprintf('%dm%02ds', intdiv($s, 60), $s % 60);
        }
        if ($s < 86400) {
            return sprintf('%dh%02dm', intdiv($s, 3600), intdiv($s % 3600, 60));
        }

        return sprintf('%dd%02dh', intdiv($s, 86400), intdiv($s % 86400, 3600));
    }

    /** How long ago $since (Unix seconds) was, as duration() says it; "-" when unknown. */
    public static function age(?float $since, float $now): string
    {
        return $since === null ? '-' : self::duration(max(0, (int) round(($now - $since) * 1000)));
    }

    /** A holder or waiter as "host:pid label", or its token when the token says neither (another library's). */
    public static function who(array $party): string
    {
        $where = ($party['host'] ?? null) === null && ($party['pid'] ?? null) === null
            ? (string) ($party['token'] ?? '?')
            : ($party['host'] ?? '?') . ':' . ($party['pid'] ?? '?');
        $label = $party['label'] ?? null;

        return $label === null || $label === '' ? $where : $where . ' ' . $label;
    }

    /** How many wait for the lock (its queue; 'waiters' lists the first 100 at most). */
    public static function waiting(array $lock): int
    {
        return (int) ($lock['queued'] ?? count($lock['waiters'] ?? []));
    }

    /** When the oldest holder took the lock (Unix seconds), or null. */
    public static function heldSince(array $lock): ?float
    {
        $since = array_filter(array_column($lock['holders'] ?? [], 'since'), static fn ($s) => $s !== null);

        return $since === [] ? null : (float) min($since);
    }

    /** The longest any waiter has waited, in ms, or null (no waiter, or none says). */
    public static function longestWait(array $lock): ?int
    {
        $waited = array_filter(array_column($lock['waiters'] ?? [], 'waited_ms'), static fn ($w) => $w !== null);

        return $waited === [] ? null : (int) max($waited);
    }

    /**
     * One lock in a few words: kind, holders (the first and how many more),
     * held for, TTL, waiters and the longest wait ("no waiters", "3 waiting
     * (longest 4.2s)").
     *
     * @return array{kind: string, holders: string, held: string, ttl: string, waiters: string}
     */
    public static function summary(array $lock, float $now): array
    {
        $holders = $lock['holders'] ?? [];
        $who = $holders === [] ? 'nobody (queue only)' : self::who($holders[0]);
        if (count($holders) > 1) {
            $who .= sprintf(' +%d', count($holders) - 1);
        }
        $waiters = self::waiting($lock);
        $longest = self::longestWait($lock);

        return [
            'kind' => (string) ($lock['kind'] ?? '?'),
            'holders' => $who,
            'held' => self::age(self::heldSince($lock), $now),
            'ttl' => self::duration($lock['ttl_ms'] ?? null),
            'waiters' => $waiters === 0 ? 'no waiters' : $waiters . ' waiting' . ($longest === null ? '' : ' (longest ' . self::duration($longest) . ')'),
        ];
    }

    /**
     * Most waiters first, then the oldest hold first, then by key: the lock
     * that blocks the most, for the longest, on top.
     *
     * @param list<array> $locks
     * @return list<array>
     */
    public static function sort(array $locks): array
    {
        usort($locks, static fn (array $a, array $b): int => [self::waiting($b), self::heldSince($a) ?? INF, (string) $a['key']]
            <=> [self::waiting($a), self::heldSince($b) ?? INF, (string) $b['key']]);

        return $locks;
    }
}
