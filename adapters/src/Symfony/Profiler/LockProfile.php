<?php

declare(strict_types=1);

namespace RedisLock\Symfony\Profiler;

/**
 * The locks one request took through the stores, in the order it asked for
 * them (LockDataCollector shows them): each with its key, kind, wait and
 * hold time, queue position, fence and outcome. Plain PHP, so that it is
 * usable (and testable) without symfony's HttpKernel.
 *
 * Outcomes: 'acquired' (still held when the request ended: hold time runs
 * to then), 'released', 'timed out' (not acquired: a one-shot attempt found
 * it held, or a wait gave up), 'lost' (found not held any more by a refresh
 * or a release: expired, or released from elsewhere).
 */
final class LockProfile implements LockRecorder
{
    /** @var list<array{key: string, kind: string, wait_ms: float, position: ?int, fence: ?int, outcome: string, hold_ms: ?float, at: float}> */
    private array $locks = [];

    /** @var array<string, array{int, int}> "$key\0$token" => [index in $locks, hrtime when acquired] */
    private array $held = [];

    public function isEnabled(): bool
    {
        return true;
    }

    public function acquired(string $key, string $kind, string $token, float $waitMs, ?int $position, ?int $fence = null): void
    {
        // Taken again by the same Key while held (a second save()): the same hold.
        if (isset($this->held[$key . "\0" . $token])) {
            return;
        }
        $this->held[$key . "\0" . $token] = [\count($this->locks), hrtime(true)];
        $this->locks[] = self::entry($key, $kind, $waitMs, $position, $fence, 'acquired');
    }

    public function timedOut(string $key, string $kind, string $token, float $waitMs, ?int $position): void
    {
        if (isset($this->held[$key . "\0" . $token])) {
            return; // a refused promotion of a read lock it keeps
        }
        $this->locks[] = self::entry($key, $kind, $waitMs, $position, null, 'timed out');
    }

    public function released(string $key, string $token): void
    {
        $this->end($key, $token, 'released');
    }

    public function lost(string $key, string $token): void
    {
        $this->end($key, $token, 'lost');
    }

    /**
     * The request's locks so far; those still held get their hold time up
     * to now.
     *
     * @return list<array{key: string, kind: string, wait_ms: float, position: ?int, fence: ?int, outcome: string, hold_ms: ?float, at: float}>
     */
    public function locks(): array
    {
        $locks = $this->locks;
        $now = hrtime(true);
        foreach ($this->held as [$index, $since]) {
            $locks[$index]['hold_ms'] = ($now - $since) / 1e6;
        }

        return $locks;
    }

    /** Forgets everything (kernel.reset: the next request of a worker starts empty). */
    public function reset(): void
    {
        $this->locks = [];
        $this->held = [];
    }

    private function end(string $key, string $token, string $outcome): void
    {
        $id = $key . "\0" . $token;
        if (!isset($this->held[$id])) {
            return; // not taken in this request, or not by this process
        }
        [$index, $since] = $this->held[$id];
        unset($this->held[$id]);
        $this->locks[$index]['hold_ms'] = (hrtime(true) - $since) / 1e6;
        $this->locks[$index]['outcome'] = $outcome;
    }

    /** @return array{key: string, kind: string, wait_ms: float, position: ?int, fence: ?int, outcome: string, hold_ms: ?float, at: float} */
    private static function entry(string $key, string $kind, float $waitMs, ?int $position, ?int $fence, string $outcome): array
    {
        return ['key' => $key, 'kind' => $kind, 'wait_ms' => round($waitMs, 3), 'position' => $position, 'fence' => $fence,
                'outcome' => $outcome, 'hold_ms' => null, 'at' => microtime(true) - $waitMs / 1000];
    }
}
