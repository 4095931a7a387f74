<?php

declare(strict_types=1);

namespace RedisLock\Tests\Symfony;

use Psr\Log\AbstractLogger;
use RedisLock\Symfony\WorkerScopes;
use RedisLock\Tests\Support\TestCase;
use Symfony\Component\EventDispatcher\EventDispatcher;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpKernel\Event\RequestEvent;
use Symfony\Component\HttpKernel\Event\TerminateEvent;
use Symfony\Component\HttpKernel\HttpKernelInterface;
use Symfony\Component\Messenger\Envelope;
use Symfony\Component\Messenger\Event\WorkerMessageFailedEvent;
use Symfony\Component\Messenger\Event\WorkerMessageHandledEvent;
use Symfony\Component\Messenger\Event\WorkerMessageReceivedEvent;

/**
 * symfony's own events, dispatched through its EventDispatcher as the
 * kernel and Messenger's worker dispatch them, end each request's and each
 * message's unit of work: what it left held is released when it ends, once,
 * and logged; kernel.reset ends every unit still open.
 */
final class WorkerScopesTest extends TestCase
{
    private EventDispatcher $events;
    private WorkerScopes $scopes;
    private object $log;

    protected function setUp(): void
    {
        parent::setUp();
        foreach ([EventDispatcher::class => 'php-symfony-event-dispatcher', RequestEvent::class => 'php-symfony-http-kernel', Envelope::class => 'php-symfony-messenger', AbstractLogger::class => 'php-psr-log'] as $class => $package) {
            if (!class_exists($class)) {
                $this->markTestSkipped("$class is not installed (apt-get install $package)");
            }
        }
        if (!class_exists(\RedisLock::class)) {
            $this->markTestSkipped('this build of the extension has no RedisLock class');
        }
        $this->log = new class () extends AbstractLogger {
            /** @var list<array{string, array}> */
            public array $lines = [];

            public function log($level, string|\Stringable $message, array $context = []): void
            {
                $this->lines[] = [(string) $message, $context];
            }
        };
        $this->events = new EventDispatcher();
        $this->events->addSubscriber($this->scopes = new WorkerScopes($this->log));
    }

    private function kernel(): HttpKernelInterface
    {
        return new class () implements HttpKernelInterface {
            public function handle(Request $request, int $type = self::MAIN_REQUEST, bool $catch = true): Response
            {
                return new Response();
            }
        };
    }

    public function testAWorkersRequestReleasesWhatItLeftAtTerminate(): void
    {
        $kernel = $this->kernel();
        $request = new Request();
        $this->events->dispatch(new RequestEvent($kernel, $request, HttpKernelInterface::MAIN_REQUEST), 'kernel.request');
        // A sub-request is no unit of its own.
        $this->events->dispatch(new RequestEvent($kernel, new Request(), HttpKernelInterface::SUB_REQUEST), 'kernel.request');
        self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        $this->events->dispatch(new TerminateEvent($kernel, $request, new Response()), 'kernel.terminate');
        self::assertSame(0, $this->redis->command('EXISTS', $this->redisKey($this->name)));
        self::assertCount(1, $this->log->lines);
        self::assertSame([$this->redisKey($this->name)], $this->log->lines[0][1]['keys']);
        // The next request gets it at once.
        $this->events->dispatch(new RequestEvent($kernel, new Request(), HttpKernelInterface::MAIN_REQUEST), 'kernel.request');
        self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        self::assertTrue(\RedisMutexLock::release($this->name));
        $this->events->dispatch(new TerminateEvent($kernel, $request, new Response()), 'kernel.terminate');
        self::assertCount(1, $this->log->lines, 'a request that released everything is not logged');
    }

    public function testAFailedMessageReleasesWhatItsHandlerLeftOnce(): void
    {
        $envelope = new Envelope(new \stdClass());
        $this->events->dispatch(new WorkerMessageReceivedEvent($envelope, 'async'));
        self::assertTrue(\RedisReadWriteLock::lockWrite($this->name, 0, 30));
        $this->events->dispatch(new WorkerMessageFailedEvent($envelope->with(), 'async', new \RuntimeException('boom')));
        self::assertSame(0, $this->redis->command('EXISTS', $this->redisKey($this->name)));
        $this->events->dispatch(new WorkerMessageHandledEvent($envelope, 'async'));
        self::assertCount(1, $this->log->lines, 'ended once');
    }

    public function testEachUnitLabelsItsLocks(): void
    {
        if (!method_exists(\RedisLock::class, 'describe')) {
            $this->markTestSkipped('this build of the extension has no lock labels');
        }
        $label = fn (): ?string => \RedisLock::describe($this->name)['holders'][0]['label'];
        $kernel = $this->kernel();
        $request = Request::create('/orders/42', 'POST');
        $request->headers->set('X-Request-Id', 'req-7f3a');
        $this->events->dispatch(new RequestEvent($kernel, $request, HttpKernelInterface::MAIN_REQUEST), 'kernel.request');
        self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        self::assertSame('req-7f3a', $label(), 'the request id');
        \RedisMutexLock::release($this->name);
        $this->events->dispatch(new TerminateEvent($kernel, $request, new Response()), 'kernel.terminate');

        $request = Request::create('/orders/42', 'POST');
        $this->events->dispatch(new RequestEvent($kernel, $request, HttpKernelInterface::MAIN_REQUEST), 'kernel.request');
        self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        self::assertSame('POST__orders_42', $label(), 'without one, method and path');
        \RedisMutexLock::release($this->name);
        $this->events->dispatch(new TerminateEvent($kernel, $request, new Response()), 'kernel.terminate');

        $envelope = new Envelope(new \ArrayObject());
        $this->events->dispatch(new WorkerMessageReceivedEvent($envelope, 'async'));
        self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        self::assertSame('ArrayObject', $label(), "a message: its class's short name");
        \RedisMutexLock::release($this->name);
        $this->events->dispatch(new WorkerMessageHandledEvent($envelope, 'async'));

        self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        self::assertNull($label(), 'after the unit: none');
        \RedisMutexLock::release($this->name);

        ini_set('redis_lock.label', 'web-3');
        try {
            $this->events->dispatch(new RequestEvent($kernel, Request::create('/x'), HttpKernelInterface::MAIN_REQUEST), 'kernel.request');
            self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
            self::assertSame('web-3', $label(), "the operator's redis_lock.label stays");
            \RedisMutexLock::release($this->name);
            $this->events->dispatch(new TerminateEvent($kernel, new Request(), new Response()), 'kernel.terminate');
        } finally {
            ini_restore('redis_lock.label');
        }
    }

    public function testKernelResetEndsEveryUnitStillOpen(): void
    {
        $this->events->dispatch(new WorkerMessageReceivedEvent(new Envelope(new \stdClass()), 'async'));
        self::assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        $this->scopes->reset();
        self::assertSame(0, $this->redis->command('EXISTS', $this->redisKey($this->name)));
        self::assertSame(['keys' => [], 'failed' => 0, 'owner_locks' => 0], \RedisLock::endScope(), 'nothing left open');
    }
}
