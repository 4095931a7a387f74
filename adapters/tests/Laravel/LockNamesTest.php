<?php

declare(strict_types=1);

namespace RedisLock\Tests\Laravel;

use PHPUnit\Framework\TestCase;
use RedisLock\Internal\LockTable;
use RedisLock\Laravel\Console\LockNames;

/**
 * What redis-lock:list says a lock is, from the names Laravel 8 to 13 give
 * their locks, and how it words durations and holders.
 */
final class LockNamesTest extends TestCase
{
    public function testLaravelsOwnLockNamesSayWhatTheyAre(): void
    {
        $task = 'framework' . DIRECTORY_SEPARATOR . 'schedule-' . sha1('nightly');
        $scheduled = [$task => 'nightly-report'];
        $this->assertSame('unique job App\Jobs\Report (7:a)', LockNames::what('laravel_unique_job:App\Jobs\Report:7:a'));
        $this->assertSame('unique job App\Jobs\Report', LockNames::what('laravel_unique_job:App\Jobs\Report:'));
        $this->assertSame('WithoutOverlapping App\Jobs\Import (import)', LockNames::what('laravel-queue-overlap:App\Jobs\Import:import'));
        $this->assertSame('schedule: nightly-report (withoutOverlapping)', LockNames::what($task, $scheduled));
        $this->assertSame('schedule: nightly-report (onOneServer, 04:30)', LockNames::what($task . '0430', $scheduled));
        $this->assertSame('schedule: a scheduled task (withoutOverlapping)', LockNames::what('framework/schedule-' . sha1('other'), $scheduled));
        $this->assertSame('isolated command reports:send', LockNames::what('framework/command-reports:send'));
        $this->assertSame('session (block)', LockNames::what('session:abc'));
        $this->assertSame('', LockNames::what('orders:42'));
    }

    public function testDurationsAndParties(): void
    {
        $this->assertSame(['-', 'no expiry', '850ms', '12.3s', '4m05s', '2h07m', '3d04h'], array_map(LockTable::duration(...), [null, -1, 850, 12_300, 245_000, 7_620_000, 273_600_000]));
        $this->assertSame('web-1:42 req-7', LockTable::who(['token' => 't', 'host' => 'web-1', 'pid' => 42, 'label' => 'req-7']));
        $this->assertSame('foreign-token', LockTable::who(['token' => 'foreign-token', 'host' => null, 'pid' => null, 'label' => null]));
        $lock = ['key' => 'k', 'kind' => 'semaphore', 'ttl_ms' => 5000, 'queued' => 120,
            'holders' => [['token' => 'a', 'host' => 'h', 'pid' => 1, 'since' => 100.0], ['token' => 'b', 'host' => 'h', 'pid' => 2, 'since' => 90.0]],
            'waiters' => [['token' => 'c', 'waited_ms' => 3000], ['token' => 'd', 'waited_ms' => 1000]]];
        $this->assertSame(['kind' => 'semaphore', 'holders' => 'h:1 +1', 'held' => '20.0s', 'ttl' => '5.0s', 'waiters' => '120 waiting (longest 3.0s)'], LockTable::summary($lock, 110.0));
        $calm = ['key' => 'a', 'holders' => [['token' => 'x', 'since' => 50.0]], 'waiters' => []];
        $old = ['key' => 'b', 'holders' => [['token' => 'y', 'since' => 10.0]], 'waiters' => []];
        $this->assertSame(['k', 'b', 'a'], array_column(LockTable::sort([$calm, $lock, $old]), 'key'), 'most waiters, then the oldest hold');
    }
}
