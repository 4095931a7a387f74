<?php

/*
 * A fatal error while a symfony lock is held on RedisLockStore: a Lock with
 * autoRelease (LockFactory::createLock()'s default, and what console's
 * LockableTrait takes) is released by symfony in the Lock's destructor, and
 * PHP runs no destructor after a fatal error (memory_limit,
 * max_execution_time). With symfony's RedisStore the lock then stays until its
 * TTL (LockableTrait: LockFactory's 300 s, so the command cannot run again for
 * 5 minutes; with symfony's default SemaphoreStore/FlockStore the OS frees it
 * at once). Here a shutdown function of the store releases it:
 *
 * - after the fatal error the key is gone, and a process parked in
 *   acquire(true) gets the lock at once, not after the 30 s TTL; also a read
 *   lock of a shared store, and a symfony/semaphore permit (autoRelease);
 * - a Lock with autoRelease = false (meant to outlive the process, e.g. passed
 *   on as a serialized Key) stays until its TTL, as with symfony's RedisStore;
 * - an ordinary end (exit(), an uncaught exception) is left to symfony: the
 *   Lock's destructor releases it, after the application's other destructors
 *   (one of them still sees the lock held);
 * - console's LockableTrait (symfony/console 7.1+, a lock factory of the
 *   command's own): a command whose execute() dies of a fatal error leaves no
 *   lock, and the next run runs.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

use RedisLock\Symfony\RedisLockStore;
use RedisLock\Symfony\RedisSemaphoreStore;
use Symfony\Component\Console\Application;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Command\LockableTrait;
use Symfony\Component\Console\Input\ArrayInput;
use Symfony\Component\Console\Input\InputArgument;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Output\OutputInterface;
use Symfony\Component\Console\Output\StreamOutput;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Semaphore\SemaphoreFactory;

need(load('Symfony/Component/Lock'), 'symfony/lock is not installed (apt-get install php-symfony-lock)');
$semaphores = load('Symfony/Component/Semaphore');
$console = load('Symfony/Component/Console') && trait_exists(LockableTrait::class) && property_exists(new class () { use LockableTrait; }, 'lockFactory');


if ($console) {
    /** A command with LockableTrait on RedisLockStore; dies inside execute() unless told "none". */
    final class ImportCommand extends Command
    {
        use LockableTrait;

        public function __construct()
        {
            $this->lockFactory = new LockFactory(new RedisLockStore());
            parent::__construct('app:import');
        }

        protected function configure(): void
        {
            $this->addArgument('how', InputArgument::REQUIRED);
        }

        protected function execute(InputInterface $input, OutputInterface $output): int
        {
            if (!$this->lock()) {
                out('busy');

                return Command::FAILURE;
            }
            out('ran');
            if (($how = $input->getArgument('how')) !== 'none') {
                in();
                die_by($how);
            }
            $this->release();

            return Command::SUCCESS;
        }
    }
}

roles([
    // Takes 'report' (write, or read on a shared store) for $ttl seconds,
    // says "held", waits for a line from the test, then dies by $how.
    'lock' => function (string $ttl, string $autoRelease, string $mode, string $how): void {
        $lock = (new LockFactory(new RedisLockStore(null, 300.0, $mode === 'read')))->createLock('report', (float) $ttl, $autoRelease === '1');
        $mode === 'read' ? $lock->acquireRead(true) : $lock->acquire(true);
        out('held');
        in();
        die_by($how);
    },
    // The same, the Lock in a global beside an object whose destructor looks
    // at it (globals are destroyed in reverse order: that object first).
    'destructors' => function (string $how): void {
        $GLOBALS['lock'] = (new LockFactory(new RedisLockStore()))->createLock('report', 30.0);
        $GLOBALS['lock']->acquire();
        $GLOBALS['watcher'] = new class () {
            public function __destruct()
            {
                out($GLOBALS['lock']->isAcquired() ? 'held in a destructor' : 'released before the destructors');
            }
        };
        out('held');
        in();
        die_by($how);
    },
    'waiter' => function (): void {
        $lock = (new LockFactory(new RedisLockStore()))->createLock('report', 30.0);
        out('waiting');
        $lock->acquire(true);
        out('got');
        $lock->release();
    },
    'try' => function (): void {
        $lock = (new LockFactory(new RedisLockStore()))->createLock('report', 30.0);
        out($lock->acquire() ? 'got' : 'busy');
    },
    'semaphore' => function (string $how): void {
        $semaphore = (new SemaphoreFactory(new RedisSemaphoreStore()))->createSemaphore('pool', 1, 1, 30.0);
        out($semaphore->acquire() ? 'held' : 'busy');
        if ($how !== 'none') {
            in();
            die_by($how);
        }
    },
    'console' => function (string $how): void {
        $application = new Application();
        $application->setAutoExit(false);
        $application->setCatchExceptions(false);
        $command = new ImportCommand();
        method_exists($application, 'addCommand') ? $application->addCommand($command) : $application->add($command);
        $application->run(new ArrayInput(['command' => 'app:import', 'how' => $how]), new StreamOutput(STDERR));
    },
]);

$redis = e2e_redis();
$say = fn (string $role, string ...$args) => spawn($role, ...$args)->finish()[0];

/** Lets $holder die, waits for its end; its exit code. */
$kill = function (Proc $holder, string $error): int {
    $holder->send('die');
    $code = $holder->wait();
    check(str_contains($holder->stderr(), $error), "it died: \"$error\" (exit $code)");

    return $code;
};

// ---- autoRelease (the default), memory_limit exhausted; a waiter parked in acquire(true)
$holder = spawn('lock', '30', '1', 'write', 'memory');
$holder->expect('held');
$token = $redis->get('lock:report');
$ttl = $redis->pttl('lock:report');
check($token !== null && $ttl > 29000 && $ttl <= 30000, "the lock is our key lock:report, TTL 30 s (PTTL $ttl ms)");
$waiter = spawn('waiter');
$waiter->expect('waiting');
check($waiter->poll(0.3) === null, 'a waiter parked in acquire(true) waits');
$sent = microtime(true);
check($kill($holder, 'Allowed memory size') === 255, 'the holder died of a fatal error, exit 255');
$handed = changed($redis, 'lock:report', $token);
$got = $waiter->expect('got');
check($handed - $sent < 2.0 && $got - $sent < 3.0, sprintf('the waiter gets the lock %.2f s after the holder was told to die, not after the 30 s TTL', $got - $sent));
check($waiter->finish()[1] === 0 && $redis->keys() === [], 'the waiter releases it: no key left');

// ---- max_execution_time, a read lock of a shared store
$holder = spawn('lock', '30', '1', 'read', 'timeout');
$holder->expect('held');
check($redis->keys() !== [], 'a read lock of a shared store (RedisReadWriteLock) is held');
check($kill($holder, 'Maximum execution time') === 255, 'the holder timed out, exit 255');
check($redis->keys() === [], 'released by the time the process has exited: no key left');

// ---- a symfony/semaphore permit
if ($semaphores) {
    $holder = spawn('semaphore', 'memory');
    $holder->expect('held');
    check($say('semaphore', 'none') === ['busy'], 'the semaphore\'s only permit is taken');
    check($kill($holder, 'Allowed memory size') === 255, 'its holder died of a fatal error, exit 255');
    check($redis->keys() === [] && $say('semaphore', 'none') === ['held'], 'the permit is given back at once (TTL 30 s)');
} else {
    echo "note: symfony/semaphore is not installed, the semaphore case is not run\n";
}

// ---- an ordinary end: left to symfony's destructor, after the others
foreach (['exit' => 3, 'exception' => 255] as $how => $exit) {
    $holder = spawn('destructors', $how);
    $holder->expect('held');
    $holder->send('die');
    $holder->expect('held in a destructor');
    check($holder->wait() === $exit, "$how: the application's destructor ran while the lock was held (exit $exit)");
    check($redis->keys() === [], "$how: then the Lock's destructor released it");
}

// ---- autoRelease = false: symfony's semantics, unchanged
$holder = spawn('lock', '2', '0', 'write', 'memory');
$taken = $holder->expect('held');
$token = $redis->get('lock:report');
$kill($holder, 'Allowed memory size');
$ttl = $redis->pttl('lock:report');
check($redis->get('lock:report') === $token && $ttl > 0 && $ttl <= 2000, "autoRelease = false: after the fatal error the lock stays (PTTL $ttl ms), as with symfony's RedisStore");
check($say('try') === ['busy'], 'and another process cannot take it meanwhile');
$gone = changed($redis, 'lock:report', $token);
check($gone - $taken > 2.0 - 0.8 && $gone - $taken < 2.0 + 0.4, sprintf('it runs out %.2f s after it was taken (TTL 2 s)', $gone - $taken));

// ---- console's LockableTrait
if ($console) {
    $holder = spawn('console', 'memory');
    $holder->expect('ran');
    $ttl = $redis->pttl('lock:app:import');
    check($ttl > 290_000 && $ttl <= 300_000, "the command's lock is our key lock:app:import, TTL 300 s (LockFactory's default): $ttl ms");
    check($say('console', 'none') === ['busy'], 'a second run does not run');
    check($kill($holder, 'Allowed memory size') === 255, 'execute() died of a fatal error, exit 255');
    check($redis->keys() === [], 'the command\'s lock is released (not held for the rest of its 300 s)');
    check($say('console', 'none') === ['ran'], 'the next run runs');
} else {
    echo "note: the LockableTrait case needs symfony/console 7.1+ (a lock factory of the command's own), not run\n";
}
check($redis->keys() === [], 'no key left');

passed();
