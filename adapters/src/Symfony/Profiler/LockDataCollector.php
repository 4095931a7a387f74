<?php

declare(strict_types=1);

namespace RedisLock\Symfony\Profiler;

use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpKernel\DataCollector\DataCollector;
use Symfony\Component\HttpKernel\DataCollector\LateDataCollectorInterface;

/**
 * The profiler's "Locks" panel: each lock the request took through the
 * stores (LockProfile), with its wait and hold time, queue position, fence
 * and outcome. Collected late (after kernel.terminate), so that a hold
 * still running shows its time to the request's end. Registered by the
 * bundle config only when WebProfilerBundle is; its template is
 * @RedisLock/Collector/redis_lock.html.twig.
 */
final class LockDataCollector extends DataCollector implements LateDataCollectorInterface
{
    private LockProfile $profile;

    public function __construct(LockProfile $profile)
    {
        $this->profile = $profile;
        // Not reset(): the profiler builds its collectors late (at
        // kernel.response), after the request took its locks.
        $this->data = ['locks' => []];
    }

    public function collect(Request $request, Response $response, ?\Throwable $exception = null): void
    {
    }

    public function lateCollect(): void
    {
        $this->data = ['locks' => $this->profile->locks()];
    }

    public function getName(): string
    {
        return 'redis_lock';
    }

    public function reset(): void
    {
        $this->data = ['locks' => []];
        $this->profile->reset();
    }

    /** @return list<array{key: string, kind: string, wait_ms: float, position: ?int, fence: ?int, outcome: string, hold_ms: ?float, at: float}> */
    public function getLocks(): array
    {
        return $this->data['locks'];
    }

    public function getCount(): int
    {
        return \count($this->data['locks']);
    }

    /** Milliseconds spent waiting for locks, in all. */
    public function getWaitMs(): float
    {
        return array_sum(array_column($this->data['locks'], 'wait_ms'));
    }

    /** Acquisitions that had to queue behind another holder. */
    public function getContended(): int
    {
        return \count(array_filter($this->data['locks'], static fn (array $lock): bool => $lock['position'] !== null));
    }

    /** Locks not acquired or lost: what the toolbar shows in red. */
    public function getProblems(): int
    {
        return \count(array_filter($this->data['locks'], static fn (array $lock): bool => \in_array($lock['outcome'], ['timed out', 'lost'], true)));
    }
}
