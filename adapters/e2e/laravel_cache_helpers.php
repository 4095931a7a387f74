<?php

/*
 * Laravel 12+'s Cache::withoutOverlapping() and Cache::funnel() on the
 * redis_lock cache store (the default store), from several processes.
 *
 * - withoutOverlapping($key, $callback) (lockFor 0: Laravel's "never
 *   expires", here a renewed lease of the store's 'lease' => 2): the second
 *   process waits and runs its callback right after the first one's ends
 *   (handed over at the release); a holder killed with SIGKILL keeps it waiting
 *   for at most the lease.
 * - funnel($name)->limit(2)->releaseAfter(2): two processes in, the third
 *   waits; when one of the two is killed, the third gets its slot when the
 *   slot's releaseAfter (2 s) runs out.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

need_laravel();
need(method_exists(Illuminate\Cache\Repository::class, 'withoutOverlapping') && method_exists(Illuminate\Cache\Repository::class, 'funnel'),
    'needs Laravel 12+ (Cache::withoutOverlapping(), Cache::funnel())');

use Illuminate\Support\Facades\Cache;

$laravel = fn () => laravel_app(['cache' => laravel_cache_config(lease: 2), 'queue' => laravel_queue_config()]);
$critical = function (): void {
    out('in');
    in(); // until the test says so, or is killed
    out('out');
};

roles([
    'without-overlapping' => function () use ($laravel, $critical): void {
        $laravel();
        out('waiting');
        Cache::withoutOverlapping('rebuild', $critical, waitFor: 10);
    },
    'funnel' => function () use ($laravel, $critical): void {
        $laravel();
        out('waiting');
        Cache::funnel('exports')->limit(2)->releaseAfter(2)->block(10)->then($critical, fn () => out('timeout'));
    },
]);

$redis = e2e_redis();

// ---- Cache::withoutOverlapping()
$first = spawn('without-overlapping');
$first->expect('in');
$ttl = $redis->pttl('lock:app:rebuild');
check($ttl > 0 && $ttl <= 2000, "the lock is our key lock:app:rebuild, a 2 s lease (PTTL $ttl ms)");
$second = spawn('without-overlapping');
$second->expect('waiting');
check($second->poll(0.5) === null, 'the second process waits while the first runs its callback');
$first->send('done');
$out = $first->expect('out');
$in = $second->expect('in');
check($in - $out < 1.5, sprintf('it runs its callback as the first one\'s ends (%.3f s later)', $in - $out));
$second->send('done');
$second->finish();
$first->finish();
check($redis->keys() === [], 'no key left');

$first = spawn('without-overlapping');
$first->expect('in');
$owner = $redis->get('lock:app:rebuild');
$second = spawn('without-overlapping');
$second->expect('waiting');
usleep(200_000);
$killed = microtime(true);
$first->kill();
$first->wait();
$gone = changed($redis, 'lock:app:rebuild', $owner);
// Renewed every third of the lease, the lock has about 2/3 of it or more left at any time.
check($gone - $killed > 0.9 && $gone - $killed < 2.0 + 0.4, sprintf('after SIGKILL of the first, its lock runs out %.2f s later (lease 2 s)', $gone - $killed));
$second->expect('in');
check(true, 'then the second runs its callback');
$second->send('done');
$second->finish();
check($redis->keys() === [], 'no key left');

// ---- Cache::funnel()
$a = spawn('funnel');
$took = $a->expect('in'); // the first slot
$b = spawn('funnel');
$b->expect('in');
check(array_keys(ttls($redis)) === ['lock:app:exports1', 'lock:app:exports2'] && max(ttls($redis)) <= 2000, 'two processes hold the two slots, our keys lock:app:exports1 and 2, TTL <= 2 s');
$c = spawn('funnel');
$c->expect('waiting');
check($c->poll(0.3) === null, 'the third waits');
$slots = [$redis->get('lock:app:exports1'), $redis->get('lock:app:exports2')];
$a->kill();
$a->wait();
$gone = changed($redis, 'lock:app:exports1', $slots[0]);
check($gone - $took > 1.2 && $gone - $took < 2.4, sprintf('after SIGKILL of one, its slot runs out %.2f s after it was taken (releaseAfter 2 s)', $gone - $took));
$c->expect('in');
$now = $redis->get('lock:app:exports1');
check($now !== null && $now !== $slots[0], 'then the third gets that slot');
$b->send('done');
$c->send('done');
check($b->finish()[0] === ['out'] && $c->finish()[0] === ['out'], 'both finish');
check($redis->keys() === [], 'no key left');

passed();
