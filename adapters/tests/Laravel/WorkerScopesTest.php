<?php

declare(strict_types=1);

namespace RedisLock\Tests\Laravel;

use Illuminate\Container\Container;
use Illuminate\Events\Dispatcher;
use Illuminate\Queue\Events\JobExceptionOccurred;
use Illuminate\Queue\Events\JobFailed;
use Illuminate\Queue\Events\JobProcessed;
use Illuminate\Queue\Events\JobProcessing;
use Illuminate\Queue\Events\JobTimedOut;
use Illuminate\Queue\Events\WorkerStopping;
use RedisLock\Laravel\WorkerScopes;
use RedisLock\Tests\Support\TestCase;

/**
 * Laravel's queue events, dispatched through Laravel's own event dispatcher
 * as its Worker dispatches them, end each job's unit of work: what the job
 * left held is released at its first end event, once, and logged.
 */
final class WorkerScopesTest extends TestCase
{
    private Dispatcher $events;

    /** The application's logger, as WorkerScopes finds it: what it warned about. */
    private object $log;

    protected function setUp(): void
    {
        parent::setUp();
        foreach (['Events', 'Queue'] as $package) {
            $autoload = stream_resolve_include_path("Illuminate/$package/autoload.php") ?: "/usr/share/php/Illuminate/$package/autoload.php";
            if (!is_file($autoload)) {
                $this->markTestSkipped("illuminate/" . strtolower($package) . " is not installed (apt-get install php-laravel-framework)");
            }
            require_once $autoload;
        }
        if (!class_exists(\RedisLock::class)) {
            $this->markTestSkipped('this build of the extension has no RedisLock class');
        }
        $this->events = new Dispatcher(new Container());
        $this->log = $log = new class () {
            /** @var list<array{string, array}> */
            public array $lines = [];

            public function warning(string $message, array $context): void
            {
                $this->lines[] = [$message, $context];
            }
        };
        WorkerScopes::listen($this->events, static fn () => $log);
    }

    public function testALockAJobLeftIsReleasedAtItsFirstEndEventOnlyAndLogged(): void
    {
        $job = new \stdClass();
        $this->events->dispatch(new JobProcessing('redis', $job));
        self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        self::assertTrue(\RedisMutexLock::lock($this->name . '-released', 0, 30));
        self::assertTrue(\RedisMutexLock::release($this->name . '-released'));
        $this->events->dispatch(new JobExceptionOccurred('redis', $job, new \RuntimeException('boom')));
        self::assertSame(0, $this->redis->command('EXISTS', $this->redisKey($this->name)), 'released at the job\'s exception');
        $this->events->dispatch(new JobFailed('redis', $job, new \RuntimeException('boom')));
        self::assertCount(1, $this->log->lines, 'one end, one warning');
        self::assertSame([$this->redisKey($this->name)], $this->log->lines[0][1]['keys']);
        self::assertSame(0, $this->log->lines[0][1]['failed']);
    }

    public function testAJobThatReleasedEverythingEndsQuietlyAndLocksTakenOutsideJobsStay(): void
    {
        self::assertTrue(\RedisMutexLock::lock($this->name . '-worker', 0, 30));
        $job = new \stdClass();
        $this->events->dispatch(new JobProcessing('redis', $job));
        self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        self::assertTrue(\RedisMutexLock::release($this->name));
        $this->events->dispatch(new JobProcessed('redis', $job));
        self::assertSame([], $this->log->lines);
        self::assertTrue(\RedisMutexLock::inspect($this->name . '-worker')['held'], 'the worker\'s own lock is not a job\'s');
        self::assertTrue(\RedisMutexLock::release($this->name . '-worker'));
    }

    public function testATimedOutJobsLockIsReleasedBeforeTheWorkerKillsItself(): void
    {
        if (!class_exists(JobTimedOut::class)) {
            $this->markTestSkipped('this Laravel has no JobTimedOut event');
        }
        ini_set('redis_lock.auto_renew', '1');
        $job = new \stdClass();
        $this->events->dispatch(new JobProcessing('redis', $job));
        self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        $this->events->dispatch(new JobTimedOut('redis', $job, 1));
        self::assertSame(0, $this->redis->command('EXISTS', $this->redisKey($this->name)));
    }

    public function testTheWorkerStoppingEndsEveryJobStillOpen(): void
    {
        $first = new \stdClass();
        $second = new \stdClass();
        $this->events->dispatch(new JobProcessing('redis', $first));
        self::assertTrue(\RedisMutexLock::lock($this->name . '-1', 0, 30));
        // No end event for the first job (it never came); the second begins inside it.
        $this->events->dispatch(new JobProcessing('redis', $second));
        self::assertTrue(\RedisSemaphore::acquire($this->name . '-2', 2, 0, 30));
        $this->events->dispatch(new WorkerStopping(0));
        self::assertSame(0, $this->redis->command('EXISTS', $this->redisKey($this->name . '-1')));
        self::assertSame(0, $this->redis->command('EXISTS', $this->redisKey($this->name . '-2')));
        self::assertSame(['keys' => [], 'failed' => 0, 'owner_locks' => 0], \RedisLock::endScope(), 'nothing left open');
    }

    /**
     * Octane is not packaged for Debian: its events are declared here with
     * Octane's constructor shapes (the listeners know them by class name only).
     */
    public function testOctaneRequestsAndTicksAreUnitsByTheirEventsClassNames(): void
    {
        if (!class_exists('Laravel\Octane\Events\RequestReceived')) {
            eval('namespace Laravel\Octane\Events;
                final class RequestReceived { public function __construct(public $app, public $sandbox, public $request) {} }
                final class RequestTerminated { public function __construct(public $app, public $sandbox, public $request, public $response) {} }
                final class TickReceived { public function __construct(public $app, public $sandbox) {} }
                final class TickTerminated { public function __construct(public $app, public $sandbox) {} }');
        }
        $request = new \stdClass();
        $this->events->dispatch(new \Laravel\Octane\Events\RequestReceived(null, null, $request));
        self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        $this->events->dispatch(new \Laravel\Octane\Events\TickReceived(null, null));
        self::assertTrue(\RedisMutexLock::lock($this->name . '-tick', 0, 30));
        $this->events->dispatch(new \Laravel\Octane\Events\TickTerminated(null, null));
        self::assertSame(0, $this->redis->command('EXISTS', $this->redisKey($this->name . '-tick')), 'the tick\'s lock released at its end');
        self::assertSame(1, $this->redis->command('EXISTS', $this->redisKey($this->name)), 'the request\'s lock still held');
        $this->events->dispatch(new \Laravel\Octane\Events\RequestTerminated(null, null, $request, null));
        self::assertSame(0, $this->redis->command('EXISTS', $this->redisKey($this->name)), 'the request\'s lock released at its end');
    }
}
