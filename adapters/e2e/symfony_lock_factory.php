<?php

/*
 * symfony/lock: LockFactory::createLock()->acquire(true) on RedisLockStore
 * from two processes. The waiter gets the lock only when the holder releases
 * it, handed over at once; a holder killed with SIGKILL (no destructor, no
 * release) keeps the waiter out until the lock's TTL (2 s) runs out, and no
 * longer. Nothing is left in Redis.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

use RedisLock\Symfony\RedisLockStore;
use Symfony\Component\Lock\LockFactory;

need(load('Symfony/Component/Lock'), 'symfony/lock is not installed (apt-get install php-symfony-lock)');

const TTL = 2.0;

roles([
    'holder' => function (): void {
        $lock = (new LockFactory(new RedisLockStore()))->createLock('report', TTL);
        $lock->acquire(true);
        out('acquired');
        if (in() === 'release') {
            $lock->release();
            out('released');
        }
    },
    'waiter' => function (): void {
        $lock = (new LockFactory(new RedisLockStore()))->createLock('report', TTL);
        out('waiting');
        $lock->acquire(true);
        out('acquired');
        $lock->release();
    },
]);

$redis = e2e_redis();

// Released: handed to the waiter.
$holder = spawn('holder');
$holder->expect('acquired');
$token = $redis->get('lock:report');
check($token !== null && $redis->pttl('lock:report') > 0 && $redis->pttl('lock:report') <= 2000, 'the holder\'s lock is the Redis key lock:report, TTL <= 2 s');
$waiter = spawn('waiter');
$waiter->expect('waiting');
check($waiter->poll(0.5) === null, 'the waiter does not get it while the holder holds it');
$holder->send('release');
$released = $holder->expect('released');
$acquired = $waiter->expect('acquired');
check($acquired - $released < 1.5, sprintf('the waiter gets it at the release (%.3f s later)', $acquired - $released));
check($waiter->finish()[1] === 0 && $holder->finish()[1] === 0, 'both processes ended normally');
check($redis->keys() === [], 'no key left in Redis');

// Killed: the waiter gets it when the TTL runs out.
$holder = spawn('holder');
$taken = $holder->expect('acquired');
$waiter = spawn('waiter');
$waiter->expect('waiting');
$token = $redis->get('lock:report');
$holder->kill();
check($holder->wait() === 128 + SIGKILL, 'the holder was killed with SIGKILL');
$gone = changed($redis, 'lock:report', $token);
check($gone - $taken > TTL - 0.8 && $gone - $taken < TTL + 0.4, sprintf('its lock runs out %.2f s after it was taken (TTL %.0f s)', $gone - $taken, TTL));
$waiter->expect('acquired');
check(true, 'then the waiter gets it');
check($waiter->finish()[1] === 0, 'the waiter ended normally');
check($redis->keys() === [], 'no key left in Redis');

passed();
