<?php

declare(strict_types=1);

namespace RedisLock\Tests\Symfony;

use Psr\Log\AbstractLogger;
use Psr\Log\LoggerInterface;
use RedisLock\Symfony\RedisLockStore;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;
use Symfony\Component\Lock\Lock;
use Symfony\Component\Lock\LockFactory;

/**
 * Logging on the `lock` channel: symfony's Lock logs its usual messages
 * through the LockFactory's logger when the store is ours, and the store adds
 * the one thing symfony does not log, how long a blocking acquisition waited.
 * A real Monolog logger (channel "lock") where php-monolog is installed,
 * else a PSR-3 logger that keeps its records.
 */
final class LockLoggingTest extends TestCase
{
    /** @var \Closure(): list<array{string, string, array<string, mixed>}> level, message, context */
    private \Closure $records;
    private LoggerInterface $logger;

    protected function setUp(): void
    {
        parent::setUp();
        $monolog = stream_resolve_include_path('Monolog/autoload.php') ?: '/usr/share/php/Monolog/autoload.php';
        if (is_file($monolog)) {
            require_once $monolog;
        }
        if (class_exists(\Monolog\Handler\TestHandler::class)) {
            $handler = new \Monolog\Handler\TestHandler();
            $this->logger = new \Monolog\Logger('lock', [$handler]);
            $this->records = static fn (): array => array_map(
                static fn ($r): array => [strtolower((string) ($r['level_name'] ?? '')), (string) $r['message'], (array) $r['context']],
                $handler->getRecords(),
            );
        } else {
            $this->logger = $logger = new class () extends AbstractLogger {
                public array $lines = [];

                public function log($level, $message, array $context = []): void
                {
                    $this->lines[] = [(string) $level, (string) $message, $context];
                }
            };
            $this->records = static fn (): array => $logger->lines;
        }
    }

    public function testSymfonysMessagesAndTheWaitReachTheLogger(): void
    {
        $store = new RedisLockStore();
        $store->setLogger($this->logger);
        $factory = new LockFactory($store);
        $factory->setLogger($this->logger);

        $holder = Child::run(sprintf('
            $owner = RedisMutexLock::newOwner();
            out(RedisMutexLock::acquire(%1$s, $owner, 30000) ? "held" : "refused");
            %2$s
            usleep(300000);
            RedisMutexLock::releaseOwner(%1$s, $owner);
        ', var_export($this->name, true), self::childAwaitWaiter($this->name)));
        $this->assertSame('held', $holder->readLine());
        $this->assertFalse($factory->createLock($this->name, 30)->acquire(), 'held by the child');
        $lock = $factory->createLock($this->name, 30);
        $this->assertTrue($lock->acquire(true));
        $lock->refresh(60);
        $lock->release();
        $this->assertSame(0, $holder->wait());

        $records = ($this->records)();
        $expected = [
            'Failed to acquire the "{resource}" lock. Someone else already acquired the lock.',
            'Acquired the "{resource}" lock after waiting {waited_ms} ms.',
            'Successfully acquired the "{resource}" lock.',
            'Expiration defined for "{resource}" lock for "{ttl}" seconds.', // acquire()'s own refresh
            'Expiration defined for "{resource}" lock for "{ttl}" seconds.',
        ];
        // symfony 7.x logs releases too; 5.4 only failed ones.
        if (str_contains((string) file_get_contents((string) (new \ReflectionClass(Lock::class))->getFileName()), 'Successfully released the')) {
            $expected[] = 'Successfully released the "{resource}" lock.';
        }
        $this->assertSame($expected, array_column($records, 1));
        foreach ($records as [, , $context]) {
            $this->assertSame($this->name, (string) $context['resource']);
        }
        $this->assertSame('info', $records[1][0]);
        $this->assertGreaterThanOrEqual(250, $records[1][2]['waited_ms']);
        $this->assertLessThan(5000, $records[1][2]['waited_ms']);
    }

    public function testAnAcquisitionThatDidNotWaitLogsNoWait(): void
    {
        $store = new RedisLockStore();
        $store->setLogger($this->logger);
        $factory = new LockFactory($store);
        $factory->setLogger($this->logger);
        $lock = $factory->createLock($this->name, 30);
        $this->assertTrue($lock->acquire(true));
        $lock->release();
        $messages = array_column(($this->records)(), 1);
        $this->assertNotContains('Acquired the "{resource}" lock after waiting {waited_ms} ms.', $messages, 'it did not wait');
        $this->assertContains('Successfully acquired the "{resource}" lock.', $messages);
    }
}
