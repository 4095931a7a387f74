<?php

declare(strict_types=1);

namespace RedisLock\Laravel;

use Illuminate\Contracts\Events\Dispatcher;
use RedisLock\Internal\UnitScopes;
use RedisLock\Laravel\Events\LocksLeaked;

/**
 * Each queue job, and each Octane request, task and tick, is a unit of work
 * (RedisLock::beginScope()/endScope(), docs/workers.md): what it leaves held
 * is released when it ends, and its renewals stop, instead of staying held
 * for as long as the worker lives. Registered by RedisLockServiceProvider.
 *
 * A job ends at whichever of its end events comes first: processed, failed,
 * its exception, released after an exception, attempted (Laravel 11+), and
 * timed out (before the worker kills itself with SIGKILL for --timeout: no
 * finally block and no request end run after that). The worker stopping
 * ends every unit still open. Octane's events are named by class, so Octane
 * is not needed to install this. Locks a job left behind are logged as a
 * warning when a logger is bound, and dispatched as a LocksLeaked event when
 * something listens for it, naming the job. While a job runs, the tokens of
 * the locks it takes carry its label (RedisLock::setLabel()): its class's
 * short name and its id, "Report-42", shown by redis-lock:list; at its end
 * the label goes back to redis_lock.label's. An application listener of
 * JobProcessing registered after the provider can set another.
 */
final class WorkerScopes
{
    private const JOB_BEGINS = ['Illuminate\Queue\Events\JobProcessing'];

    private const JOB_ENDS = [
        'Illuminate\Queue\Events\JobProcessed',
        'Illuminate\Queue\Events\JobFailed',
        'Illuminate\Queue\Events\JobExceptionOccurred',
        'Illuminate\Queue\Events\JobReleasedAfterException',
        'Illuminate\Queue\Events\JobAttempted',
        'Illuminate\Queue\Events\JobTimedOut',
    ];

    /** Octane: event class => [unit, begins?]; the unit is the event's property of that name. */
    private const OCTANE = [
        'Laravel\Octane\Events\RequestReceived' => ['request', true],
        'Laravel\Octane\Events\RequestTerminated' => ['request', false],
        'Laravel\Octane\Events\TaskReceived' => ['task', true],
        'Laravel\Octane\Events\TaskTerminated' => ['task', false],
        'Laravel\Octane\Events\TickReceived' => [null, true],
        'Laravel\Octane\Events\TickTerminated' => [null, false],
    ];

    private const STOPS = ['Illuminate\Queue\Events\WorkerStopping', 'Laravel\Octane\Events\WorkerStopping'];

    /** @param (\Closure(): mixed)|null $logger the application's logger, when it has one */
    public static function listen(Dispatcher $events, ?\Closure $logger = null): UnitScopes
    {
        /** @var \ArrayObject<int|string, string> $names unit => what it is, for the log and LocksLeaked */
        $names = new \ArrayObject();
        $scopes = new UnitScopes(static function (string $unit, array $left) use ($logger, $events, $names): void {
            $unit = $names[$unit] ?? $unit;
            $log = $logger === null ? null : $logger();
            if (is_object($log) && method_exists($log, 'warning')) {
                $log->warning('redis_lock: a unit of work left locks behind; released at its end', ['unit' => $unit] + $left);
            }
            if ($left['keys'] !== [] && $events->hasListeners(LocksLeaked::class)) {
                $events->dispatch(new LocksLeaked($left['keys'], $unit, $left['failed']));
            }
        });
        $job = static fn (object $event): int => spl_object_id($event->job);
        $labels = method_exists(\RedisLock::class, 'setLabel');
        foreach (self::JOB_BEGINS as $class) {
            $events->listen($class, static function (object $event) use ($scopes, $job, $names, $labels): void {
                [$name, $id] = self::jobName($event->job);
                $names[$job($event)] = 'job ' . $name . ($id === '' ? '' : " ($id)");
                if ($labels) {
                    // Its locks' tokens say which job holds them (redis-lock:list).
                    \RedisLock::setLabel(substr((string) strrchr('\\' . $name, '\\'), 1) . ($id === '' ? '' : '-' . $id));
                }
                $scopes->begin($job($event));
            });
        }
        foreach (self::JOB_ENDS as $class) {
            $events->listen($class, static function (object $event) use ($scopes, $job, $names, $labels): void {
                $scopes->end($job($event));
                unset($names[$job($event)]);
                if ($labels) {
                    \RedisLock::setLabel('');
                }
            });
        }
        foreach (self::OCTANE as $class => [$property, $begins]) {
            $unit = static fn (object $event): int|string => $property === null ? 'octane tick' : spl_object_id($event->{$property});
            $events->listen($class, $begins
                ? static fn (object $event) => $scopes->begin($unit($event))
                : static fn (object $event) => $scopes->end($unit($event)));
        }
        foreach (self::STOPS as $class) {
            $events->listen($class, static fn () => $scopes->endAll());
        }
        return $scopes;
    }

    /** @return array{string, string} the job's class (as Laravel names it) and id ('' for none) */
    private static function jobName(object $job): array
    {
        try {
            $name = method_exists($job, 'resolveName') ? (string) $job->resolveName() : $job::class;
            $id = method_exists($job, 'getJobId') ? (string) $job->getJobId() : '';
        } catch (\Throwable) {
            return [$job::class, ''];
        }

        return [$name, $id];
    }
}
