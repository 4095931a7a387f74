<?php

declare(strict_types=1);

namespace RedisLock\Internal;

/**
 * The scopes (RedisLock::beginScope()/endScope()) of a worker's units of
 * work, opened and ended from a framework's events: a queue job, a message,
 * a worker's request. A unit is named by the caller (an object id, or a
 * fixed name); ending a unit that is not open does nothing, so two events
 * for one end (a job that failed: its exception, then its failure) are
 * safe. A unit left open when the next one begins (an event that never
 * came) is ended first. What a unit left behind is handed to $report, for
 * the framework's log.
 *
 * @internal
 */
final class UnitScopes
{
    /** @var array<int|string, int> unit => scope id, oldest first */
    private array $open = [];

    /** @param (\Closure(string, array{keys: list<string>, failed: int, owner_locks: int}): void)|null $report */
    public function __construct(private ?\Closure $report = null)
    {
    }

    public function begin(int|string $unit): void
    {
        $this->end($unit);
        $this->open[$unit] = \RedisLock::beginScope();
    }

    public function end(int|string $unit): void
    {
        if (!isset($this->open[$unit])) {
            return;
        }
        $scope = $this->open[$unit];
        unset($this->open[$unit]);
        $this->ended((string) $unit, \RedisLock::endScope($scope));
    }

    /** Ends every unit still open (the worker stops, or resets between units). */
    public function endAll(): void
    {
        if ($this->open === []) {
            return;
        }
        $oldest = reset($this->open);
        $this->open = [];
        // Units opened after the oldest are scopes inside it: ended with it.
        $this->ended('every unit still open', \RedisLock::endScope($oldest));
    }

    /** Whether any unit is open. */
    public function active(): bool
    {
        return $this->open !== [];
    }

    private function ended(string $unit, array $left): void
    {
        if ($this->report !== null && ($left['keys'] !== [] || $left['owner_locks'] > 0)) {
            ($this->report)($unit, $left);
        }
    }
}
