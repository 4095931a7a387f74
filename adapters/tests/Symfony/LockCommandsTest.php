<?php

declare(strict_types=1);

namespace RedisLock\Tests\Symfony;

use RedisLock\Symfony\Command\ListLocksCommand;
use RedisLock\Symfony\Command\ReleaseLockCommand;
use RedisLock\Symfony\Command\ShowLockCommand;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;
use Symfony\Component\Console\Application;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Tester\CommandTester;

/**
 * redis-lock:list, :show and :release (symfony/console, CommandTester)
 * against locks that other processes hold and wait for.
 */
final class LockCommandsTest extends TestCase
{
    /** @var list<Child> */
    private array $children = [];

    protected function setUp(): void
    {
        parent::setUp();
        $console = stream_resolve_include_path('Symfony/Component/Console/autoload.php') ?: '/usr/share/php/Symfony/Component/Console/autoload.php';
        if (is_file($console)) {
            require_once $console;
        }
        if (!class_exists(Command::class)) {
            $this->markTestSkipped('symfony/console is not installed (apt-get install php-symfony-console)');
        }
        if (!method_exists(\RedisLock::class, 'locks')) {
            $this->markTestSkipped('this build of the extension cannot list locks (no RedisLock::locks())');
        }
    }

    protected function tearDown(): void
    {
        foreach ($this->children as $child) {
            $child->kill();
        }
        parent::tearDown();
    }

    private function tester(Command $command): CommandTester
    {
        $application = new Application();
        $application->addCommands([$command]);

        return new CommandTester($application->find((string) $command->getName()));
    }

    /** A child holding $name for its own owner token; prints "held TOKEN", releases on "release". */
    private function holder(string $name): array
    {
        $child = $this->children[] = Child::run(sprintf('
            $owner = RedisMutexLock::newOwner();
            out(RedisMutexLock::acquire(%s, $owner, 60000) ? "held " . $owner : "refused");
            in();
        ', var_export($name, true)));
        $line = $child->readLine();
        $this->assertStringStartsWith('held ', $line);

        return [$child, substr($line, 5)];
    }

    /** A child waiting for $name (up to 20 s); prints "got" when it has it. */
    private function waiter(string $name): Child
    {
        $child = $this->children[] = Child::run(sprintf('
            out("waiting");
            out(RedisMutexLock::acquire(%s, RedisMutexLock::newOwner(), 60000, 20) ? "got" : "gave up");
        ', var_export($name, true)));
        $this->assertSame('waiting', $child->readLine());
        $this->waitUntil(fn (): bool => \RedisMutexLock::inspect($name)['waiters'] === 1, 10, "a waiter queued on $name");

        return $child;
    }

    public function testListShowsHoldersAndWaitersTheMostWaitedForFirst(): void
    {
        [$quiet] = $this->holder($this->name . '-quiet');
        [$busy] = $this->holder($this->name . '-busy');
        $this->waiter($this->name . '-busy');
        $this->assertTrue(\RedisMutexLock::lock('other-' . $this->name, 0, 30));

        $list = $this->tester(new ListLocksCommand());
        $this->assertSame(0, $list->execute(['pattern' => $this->name . '-*']));
        $text = $list->getDisplay();
        $this->assertStringNotContainsString('other-', $text, 'the pattern filters');
        $busyAt = strpos($text, $this->name . '-busy');
        $quietAt = strpos($text, $this->name . '-quiet');
        $this->assertNotFalse($busyAt);
        $this->assertNotFalse($quietAt);
        $this->assertLessThan($quietAt, $busyAt, 'the lock with a waiter first');
        $this->assertStringContainsString(':' . $busy->pid, $text, 'holder host:pid');
        $this->assertMatchesRegularExpression('/' . preg_quote($this->name, '/') . '-busy\s*\|\s*mutex\s*\|[^\n]*\|\s*1\s*\|/', $text, 'one waiter');

        $this->assertSame(0, $list->execute(['pattern' => $this->name . '-*', '--json' => true]));
        $lines = array_values(array_filter(explode("\n", $list->getDisplay())));
        $this->assertCount(2, $lines, 'one JSON object per lock and line');
        $locks = [];
        foreach ($lines as $line) {
            $lock = json_decode($line, true, 512, JSON_THROW_ON_ERROR);
            $locks[$lock['key']] = $lock;
        }
        $busyLock = $locks[$this->name . '-busy'];
        $this->assertSame('mutex', $busyLock['kind']);
        $this->assertSame($quiet->pid, $locks[$this->name . '-quiet']['holders'][0]['pid']);
        $this->assertSame($busy->pid, $busyLock['holders'][0]['pid']);
        $this->assertGreaterThan(50000, $busyLock['holders'][0]['ttl_ms']);
        $this->assertCount(1, $busyLock['waiters']);
        $this->assertIsInt($busyLock['waiters'][0]['waited_ms']);

        $this->assertSame(0, $list->execute(['pattern' => $this->name . '-*', '--limit' => '1']));
        $this->assertStringContainsString('Showing the first 1 locks', $list->getDisplay());
        $this->assertSame(Command::INVALID, $list->execute(['--limit' => '0']));
        \RedisMutexLock::release('other-' . $this->name);
    }

    public function testShowGivesOneLockWithItsQueue(): void
    {
        [$holder, $token] = $this->holder($this->name);
        $waiter = $this->waiter($this->name);
        $show = $this->tester(new ShowLockCommand());
        $this->assertSame(0, $show->execute(['key' => $this->name]));
        $text = $show->getDisplay();
        $this->assertStringContainsString($this->name . ' (mutex, Redis key ' . $this->redisKey($this->name), $text);
        $this->assertStringContainsString($token, $text, 'the token, for release --owner');
        $this->assertStringContainsString(':' . $holder->pid, $text);
        $this->assertStringContainsString(':' . $waiter->pid, $text, 'the waiter, in the queue table');

        $this->assertSame(0, $show->execute(['key' => $this->name, '--json' => true]));
        $lock = json_decode($show->getDisplay(), true, 512, JSON_THROW_ON_ERROR);
        $this->assertSame($token, $lock['holders'][0]['token']);
        $this->assertSame($waiter->pid, $lock['waiters'][0]['pid']);

        $this->assertSame(1, $show->execute(['key' => $this->name . '-none']));
        $this->assertStringContainsString('No lock at', $show->getDisplay());
    }

    public function testReleaseAsksChecksTheOwnerAndHandsTheLockOn(): void
    {
        [, $token] = $this->holder($this->name);
        $waiter = $this->waiter($this->name);
        $release = $this->tester(new ReleaseLockCommand());

        $this->assertSame(1, $release->execute(['key' => $this->name, '--owner' => 'not-the-owner'], ['interactive' => false]));
        $this->assertSame(1, $release->execute(['key' => $this->name], ['interactive' => false]), 'no terminal, no --force');
        $this->assertStringContainsString('needs --force', $release->getDisplay());
        $release->setInputs(['no']);
        $this->assertSame(1, $release->execute(['key' => $this->name], ['interactive' => true]));
        $this->assertStringContainsString('Release mutex lock "' . $this->name . '"', $release->getDisplay());
        $this->assertSame($token, \RedisMutexLock::owner($this->name), 'still held after all three');

        $release->setInputs(['yes']);
        $this->assertSame(0, $release->execute(['key' => $this->name, '--owner' => $token], ['interactive' => true]));
        $this->assertStringContainsString('Released "' . $this->name . '" (1 hold)', $release->getDisplay());
        $this->assertSame('got', $waiter->readLine(), 'handed to the waiter');

        // --force: whoever holds it, no question.
        $this->assertNotSame($token, \RedisMutexLock::owner($this->name));
        $this->assertSame(0, $release->execute(['key' => $this->name, '--force' => true], ['interactive' => true]));
        $this->assertNull(\RedisMutexLock::owner($this->name));
        $this->assertSame(1, $release->execute(['key' => $this->name, '--force' => true]));
        $this->assertStringContainsString('nothing to release', $release->getDisplay());
    }

    public function testWatchRedrawsUntilInterrupted(): void
    {
        $this->assertTrue(\RedisMutexLock::lock($this->name, 0, 30));
        $child = $this->children[] = Child::run(sprintf('
            require_once "/usr/share/php/Symfony/Component/Console/autoload.php";
            $application = new Symfony\Component\Console\Application();
            $application->addCommands([new RedisLock\Symfony\Command\ListLocksCommand()]);
            $application->setAutoExit(false);
            $application->run(new Symfony\Component\Console\Input\ArgvInput(["console", "redis-lock:list", %s, "--watch=0.2"]),
                new Symfony\Component\Console\Output\StreamOutput(STDOUT));
        ', var_export($this->name, true)));
        $frames = 0;
        $start = microtime(true);
        while ($frames < 3) {
            $line = $child->readLine();
            if (str_contains($line, 'every 0.2 s (Ctrl-C ends)')) {
                $frames++;
            } elseif ($frames > 0) {
                $this->assertStringNotContainsString('No lock matches', $line);
            }
        }
        $this->assertGreaterThan(0.35, microtime(true) - $start, 'three frames take two pauses');
        \RedisMutexLock::release($this->name);
    }
}
