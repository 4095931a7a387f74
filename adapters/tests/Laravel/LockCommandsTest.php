<?php

declare(strict_types=1);

namespace RedisLock\Tests\Laravel;

use Illuminate\Container\Container;
use RedisLock\Laravel\Console\ListLocksCommand;
use RedisLock\Laravel\Console\ReleaseLockCommand;
use RedisLock\Laravel\Console\ShowLockCommand;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\LaravelApp;
use RedisLock\Tests\Support\TestCase;
use Symfony\Component\Console\Tester\CommandTester;

/**
 * redis-lock:list, :show and :release (Laravel's console commands, run
 * through symfony/console's CommandTester) against locks of the redis_lock
 * store held and waited for by other processes.
 */
final class LockCommandsTest extends TestCase
{
    private const UNIQUE = 'laravel_unique_job:App\Jobs\Report:7';

    private Container $app;

    protected function setUp(): void
    {
        parent::setUp();
        $this->app = LaravelApp::make($this->mainServer(), ['Events', 'Console', 'Foundation'], true);
        if (!class_exists(\Illuminate\Console\View\Components\Factory::class)) {
            $this->markTestSkipped('the commands need Laravel 9+ (console components)');
        }
    }

    /** @return array{int, string} exit code, output */
    private function artisan(string $class, array $input, ?array $answers = null): array
    {
        $command = new $class();
        $command->setLaravel($this->app);
        $tester = new CommandTester($command);
        if ($answers !== null) {
            $tester->setInputs($answers);
        }
        $code = $tester->execute($input, ['interactive' => $answers !== null, 'decorated' => false]);

        return [$code, $tester->getDisplay()];
    }

    /** A child holding the store's lock $name (30 s); it writes its owner. */
    private function holder(string $name): Child
    {
        $child = Child::run(sprintf('$l = (new RedisLock\Laravel\NativeLockStore(null, "app:"))->lock(%s, 30); out($l->get() ? $l->owner() : "busy"); in();', var_export($name, true)));
        $this->assertNotSame('busy', $child->readLine());

        return $child;
    }

    /** A child waiting (block) for the store's lock $name; it writes "acquired" when it has it. */
    private function waiter(string $name): Child
    {
        $child = Child::run(sprintf('$l = (new RedisLock\Laravel\NativeLockStore(null, "app:"))->lock(%s, 30); $l->block(20); out("acquired " . $l->owner()); in();', var_export($name, true)));
        $this->waitUntil(static fn () => \RedisMutexLock::inspect('app:' . $name)['waiters'] >= 1, 5.0, 'the waiter queued');

        return $child;
    }

    public function testListAndShowNameLaravelsLocksWithTheirHoldersAndWaiters(): void
    {
        $holder = $this->holder(self::UNIQUE);
        $waiter = $this->waiter(self::UNIQUE);
        $other = $this->holder('reports:daily');

        [$code, $out] = $this->artisan(ListLocksCommand::class, ['--json' => true]);
        $this->assertSame(0, $code);
        $locks = json_decode($out, true);
        $this->assertSame([self::UNIQUE, 'reports:daily'], array_column($locks, 'name'), 'the names Cache::lock() was given, the one with waiters first');
        [$unique, $daily] = $locks;
        $this->assertSame('unique job App\Jobs\Report (7)', $unique['what']);
        $this->assertSame('', $daily['what']);
        $this->assertSame('mutex', $unique['kind']);
        $this->assertSame($this->redisKey('app:' . self::UNIQUE), $unique['redis_key']);
        $this->assertSame($holder->pid, $unique['holders'][0]['pid']);
        $this->assertSame(gethostname(), $unique['holders'][0]['host']);
        $this->assertGreaterThan(0, $unique['ttl_ms']);
        $this->assertLessThanOrEqual(30000, $unique['ttl_ms']);
        $this->assertCount(1, $unique['waiters']);
        $this->assertSame($waiter->pid, $unique['waiters'][0]['pid']);
        $this->assertSame($other->pid, $daily['holders'][0]['pid']);
        $this->assertSame([], $daily['waiters']);

        [, $out] = $this->artisan(ListLocksCommand::class, ['pattern' => 'laravel_unique_job:*', '--json' => true]);
        $this->assertSame([self::UNIQUE], array_column(json_decode($out, true), 'name'), 'the pattern is a glob over the names');

        [$code, $out] = $this->artisan(ListLocksCommand::class, []);
        $this->assertSame(0, $code);
        $lines = array_values(array_filter(explode("\n", $out), static fn ($l) => str_contains($l, 'laravel_unique_job') || str_contains($l, 'reports:daily')));
        $this->assertCount(2, $lines, $out);
        $this->assertStringContainsString('unique job App\Jobs\Report (7)', $lines[0]);
        $this->assertStringContainsString(':' . $holder->pid, $lines[0]);
        $this->assertStringContainsString('1 waiting', $lines[0]);
        $this->assertStringContainsString(':' . $other->pid, $lines[1]);
        $this->assertStringContainsString('no waiters', $lines[1]);

        [$code, $out] = $this->artisan(ShowLockCommand::class, ['name' => self::UNIQUE, '--json' => true]);
        $this->assertSame(0, $code);
        $shown = json_decode($out, true);
        $this->assertSame(self::UNIQUE, $shown['name']);
        $this->assertSame($waiter->pid, $shown['waiters'][0]['pid']);
        [$code, $out] = $this->artisan(ShowLockCommand::class, ['name' => self::UNIQUE]);
        $this->assertSame(0, $code);
        $this->assertMatchesRegularExpression('~^Holders\n(.*\n){3}\| \S+ +\| \S+ +\| ' . $holder->pid . ' ~m', $out, 'the holder\'s row');
        $this->assertMatchesRegularExpression('~^Waiters.*\n(.*\n){3}\| 1 \| \S+ +\| \S+ +\| ' . $waiter->pid . ' ~m', $out, 'the first waiter\'s row');

        [$code, $out] = $this->artisan(ShowLockCommand::class, ['name' => 'nothing:here']);
        $this->assertSame(1, $code);
        $this->assertStringContainsString('Nobody holds the lock [nothing:here]', $out);
    }

    public function testReleaseAsksThenHandsTheLockToItsFirstWaiter(): void
    {
        $holder = $this->holder(self::UNIQUE);
        $owner = $this->redis->get($this->redisKey('app:' . self::UNIQUE));
        $waiter = $this->waiter(self::UNIQUE);

        [$code, $out] = $this->artisan(ReleaseLockCommand::class, ['name' => self::UNIQUE], ['no']);
        $this->assertSame(1, $code);
        $this->assertStringContainsString(':' . $holder->pid, $out, 'it shows whom it would release');
        $this->assertSame($owner, $this->redis->get($this->redisKey('app:' . self::UNIQUE)), 'answered no: still held');

        [$code, $out] = $this->artisan(ReleaseLockCommand::class, ['name' => self::UNIQUE, '--owner' => 'not-the-holder', '--force' => true]);
        $this->assertSame(1, $code);
        $this->assertStringContainsString('does not hold the lock', $out);
        $this->assertSame($owner, $this->redis->get($this->redisKey('app:' . self::UNIQUE)));

        [$code, $out] = $this->artisan(ReleaseLockCommand::class, ['name' => self::UNIQUE]); // --no-interaction: yes
        $this->assertSame(0, $code, $out);
        $this->assertStringContainsString('Its first waiter', $out);
        $taken = $waiter->readLine();
        $this->assertStringStartsWith('acquired ', $taken);
        $this->assertSame(substr($taken, 9), $this->redis->get($this->redisKey('app:' . self::UNIQUE)), 'the waiter holds it now');

        [$code] = $this->artisan(ReleaseLockCommand::class, ['name' => self::UNIQUE, '--force' => true]);
        $this->assertSame(0, $code);
        $this->assertFalse($this->redis->exists($this->redisKey('app:' . self::UNIQUE)), '--force: released whoever held it');

        [$code, $out] = $this->artisan(ReleaseLockCommand::class, ['name' => self::UNIQUE, '--force' => true]);
        $this->assertSame(1, $code);
        $this->assertStringContainsString('Nobody holds the lock', $out);
    }

    public function testWatchRefreshesEverySecond(): void
    {
        $holder = $this->holder('reports:daily');
        $start = microtime(true);
        [$code, $out] = $this->artisan(ListLocksCommand::class, ['--watch' => true, '--times' => '2', '--json' => true]);
        $took = microtime(true) - $start;
        $this->assertSame(0, $code);
        $views = array_values(array_filter(explode("\n", $out)));
        $this->assertCount(2, $views, $out);
        foreach ($views as $view) {
            $this->assertSame($holder->pid, json_decode($view, true)[0]['holders'][0]['pid']);
        }
        $this->assertGreaterThan(0.9, $took, 'a second between the two');
        $this->assertLessThan(5, $took);
    }
}
