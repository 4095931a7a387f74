<?php

declare(strict_types=1);

namespace RedisLock\Tests\Laravel;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\LockTimeoutException;
use RedisLock\Laravel\NativeLock;
use RedisLock\Laravel\NativeLockProvider;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;

final class NativeLockTest extends TestCase
{
    private const OWNER = '/^[0-9A-F]{32}:[A-Za-z0-9._-]+:\d+:\d+$/';

    private function key(): string
    {
        return 'lock:' . $this->name;
    }

    /** Child code holding $name for $seconds as NativeLock $lock, then writing "held <owner>". */
    private function childHolding(int $seconds, string $then, int $lease = NativeLock::LEASE_SECONDS): Child
    {
        return Child::run(sprintf('
            $lock = (new RedisLock\Laravel\NativeLock(%s, %d))->lease(%d);
            out($lock->get() ? "held " . $lock->owner() : "refused");
            %s', var_export($this->name, true), $seconds, $lease, $then));
    }

    private function holderOwner(Child $child): string
    {
        $line = $child->readLine();
        $this->assertStringStartsWith('held ', $line);

        return substr($line, 5);
    }

    public function testIsALaravelLock(): void
    {
        $lock = new NativeLock($this->name, 10);
        $this->assertInstanceOf(Lock::class, $lock);
        $this->assertInstanceOf(LockProvider::class, new NativeLockProvider());
    }

    public function testGetReleaseAndOwner(): void
    {
        $lock = new NativeLock($this->name, 10);
        $this->assertMatchesRegularExpression(self::OWNER, $lock->owner(), 'default owner: RedisMutexLock::newOwner()');
        $this->assertNotSame($lock->owner(), (new NativeLock($this->name, 10))->owner());
        $this->assertSame('mine', (new NativeLock($this->name, 10, 'mine'))->owner());

        $this->assertTrue($lock->get());
        $this->assertSame($lock->owner(), $this->redis->get($this->key()));
        $pttl = $this->redis->pttl($this->key());
        $this->assertGreaterThan(9000, $pttl);
        $this->assertLessThanOrEqual(10000, $pttl);
        $this->assertTrue($lock->isOwnedByCurrentProcess());

        $this->assertTrue($lock->release());
        $this->assertFalse($lock->isOwnedByCurrentProcess());
        $this->assertSame([], $this->redis->keys());
        $this->assertFalse($lock->release(), 'nothing to release');
    }

    public function testRefusedWhileAnotherOwnerHoldsIt(): void
    {
        $first = new NativeLock($this->name, 10);
        $second = new NativeLock($this->name, 10);
        $this->assertTrue($first->get());

        $this->assertFalse($second->get());
        $called = false;
        $this->assertFalse($second->get(function () use (&$called) {
            $called = true;
        }), 'get($callback) of a held lock: false, callback not run');
        $this->assertFalse($called);
        $this->assertFalse($second->isOwnedByCurrentProcess());
        $this->assertFalse($second->release(), 'release() by another owner');
        $this->assertSame($first->owner(), $this->redis->get($this->key()), 'left alone');

        $start = microtime(true);
        try {
            $second->block(0);
            $this->fail('LockTimeoutException expected');
        } catch (LockTimeoutException $e) {
        }
        $this->assertLessThan(0.5, microtime(true) - $start, 'block(0): one attempt');

        $this->assertTrue($first->release());
        $this->assertTrue($second->get());
        $second->release();
    }

    public function testGetWithCallbackReturnsItsResultAndReleases(): void
    {
        $lock = new NativeLock($this->name, 10);
        $result = $lock->get(function () use ($lock) {
            $this->assertSame($lock->owner(), $this->redis->get($this->key()), 'held while the callback runs');

            return 'result';
        });
        $this->assertSame('result', $result);
        $this->assertSame([], $this->redis->keys(), 'released after the callback');

        try {
            $lock->get(function () {
                throw new \DomainException('boom');
            });
            $this->fail('the callback\'s exception must come through');
        } catch (\DomainException $e) {
            $this->assertSame('boom', $e->getMessage());
        }
        $this->assertSame([], $this->redis->keys(), 'released in finally');
    }

    public function testASecondGetOfTheSameOwnerIsRefused(): void
    {
        $lock = new NativeLock($this->name, 2);
        $this->assertTrue($lock->get());
        usleep(300000);
        $this->assertFalse($lock->get(), 'Laravel\'s acquire() is SET NX: held, also by its own owner');
        $this->assertFalse((new NativeLock($this->name, 10, $lock->owner()))->get(), 'another object of the same owner');
        $this->assertSame($lock->owner(), $this->redis->get($this->key()));
        $this->assertLessThanOrEqual(1700, $this->redis->pttl($this->key()), 'the TTL was not refreshed');

        $this->assertTrue($lock->release());
        $this->assertSame([], $this->redis->keys());
        $this->assertTrue($lock->get(), 'free again: taken');
        $this->assertTrue($lock->release());
    }

    public function testBlockOfALockItsOwnerHoldsEndsWithItsExpiry(): void
    {
        $lock = new NativeLock($this->name, 1);
        $this->assertTrue($lock->get());
        $start = microtime(true);
        $this->assertTrue($lock->block(3));
        $waited = microtime(true) - $start;
        $this->assertGreaterThanOrEqual(0.8, $waited, 'not taken again while its owner held it');
        $this->assertLessThan(1.6, $waited, 'taken once it expired');
        $this->assertSame($lock->owner(), $this->redis->get($this->key()));
        $this->assertGreaterThan(700, $this->redis->pttl($this->key()), 'a new TTL from the new acquisition');

        $held = new NativeLock($this->name, 10, $lock->owner());
        $held->forceRelease();
        $this->assertTrue($held->get());
        $start = microtime(true);
        try {
            $held->block(0.5);
            $this->fail('LockTimeoutException expected');
        } catch (LockTimeoutException $e) {
        }
        $waited = microtime(true) - $start;
        $this->assertGreaterThanOrEqual(0.45, $waited);
        $this->assertLessThan(1.0, $waited);
        $this->assertGreaterThan(9000, $this->redis->pttl($this->key()), 'its TTL left alone');
        $this->assertLessThanOrEqual(9500, $this->redis->pttl($this->key()));
        $this->assertTrue($held->release());
        $this->assertSame([], $this->redis->keys());
    }

    public function testRefreshByTheOwner(): void
    {
        $lock = new NativeLock($this->name, 10);
        $this->assertTrue($lock->get());
        $this->assertTrue($lock->refresh(20));
        $this->assertGreaterThan(19000, $this->redis->pttl($this->key()));
        $this->assertLessThanOrEqual(20000, $this->redis->pttl($this->key()));
        $this->assertFalse((new NativeLock($this->name, 10))->get(), 'still held');
        $this->assertSame($lock->owner(), $this->redis->get($this->key()));
        $this->assertTrue($lock->release());
        $this->assertSame([], $this->redis->keys());
    }

    public function testRefreshIsRefusedForAnotherOwner(): void
    {
        $lock = new NativeLock($this->name, 10);
        $this->assertTrue($lock->get());
        $other = (new NativeLockProvider())->restoreLock($this->name, 'other_owner');
        $this->assertFalse($other->refresh(20));
        $this->assertFalse($other->refresh(0));
        $this->assertLessThanOrEqual(10000, $this->redis->pttl($this->key()), 'the TTL left alone');
        $this->assertSame($lock->owner(), $this->redis->get($this->key()));
        $this->assertTrue($lock->refresh(20));
        $this->assertGreaterThan(19000, $this->redis->pttl($this->key()));
        $this->assertTrue($lock->release());
    }

    public function testRefreshOfAFreeOrExpiredLockTakesNothing(): void
    {
        $lock = new NativeLock($this->name, 1);
        $this->assertFalse($lock->refresh(20), 'never taken');
        $this->assertFalse($lock->refresh(0));
        $this->assertSame([], $this->redis->keys());

        $this->assertTrue($lock->get());
        $this->waitUntil(fn () => !$this->redis->exists($this->key()), 2.0, 'expiry');
        $this->assertFalse($lock->refresh(20), 'expired: the previous owner cannot refresh it');
        $this->assertSame([], $this->redis->keys());
    }

    public function testRefreshDefaultsToTheLocksSeconds(): void
    {
        $lock = new NativeLock($this->name, 10);
        $this->assertTrue($lock->get());
        usleep(400000);
        $this->assertLessThan(9700, $this->redis->pttl($this->key()));
        $this->assertTrue($lock->refresh());
        $this->assertGreaterThan(9700, $this->redis->pttl($this->key()), 'back to 10 s');
        $this->assertFalse((new NativeLock($this->name, 10))->get());
        $this->assertTrue($lock->release());
    }

    public function testRefreshOfANoExpirationLockKeepsItsRenewedLease(): void
    {
        $lock = (new NativeLock($this->name, 0))->lease(1);
        $this->assertTrue($lock->get());
        $this->assertTrue($lock->refresh());
        $this->assertHeldAndRenewedFor($lock, 1.8);
        $this->assertFalse((new NativeLock($this->name, 0))->get());
        $this->assertTrue($lock->release());
        $this->assertSame([], $this->redis->keys());
    }

    public function testRefreshWithZeroSecondsTurnsTheTtlIntoARenewedLease(): void
    {
        $lock = (new NativeLock($this->name, 1))->lease(1);
        $this->assertTrue($lock->get());
        $this->assertTrue($lock->refresh(0), 'Laravel: the expiration goes, the lock stays');
        $this->assertHeldAndRenewedFor($lock, 2.0);
        $this->assertTrue($lock->release());
        $this->assertSame([], $this->redis->keys());
        usleep(500000);
        $this->assertSame([], $this->redis->keys(), 'no renewal after release');
    }

    public function testRefreshWithSecondsEndsTheRenewals(): void
    {
        $lock = (new NativeLock($this->name, 0))->lease(1);
        $this->assertTrue($lock->get());
        $this->assertTrue($lock->refresh(2));
        $pttl = $this->redis->pttl($this->key());
        $this->assertGreaterThan(1500, $pttl);
        $this->assertLessThanOrEqual(2000, $pttl);
        $expired = $this->waitUntil(fn () => !$this->redis->exists($this->key()), 3.0, 'expiry of the refreshed lock');
        $this->assertGreaterThan(1.5, $expired, 'it lasted its 2 s');
        $this->assertFalse($lock->release());
    }

    public function testRefreshWhileAnotherProcessWaits(): void
    {
        $lock = (new NativeLock($this->name, 10))->lease(1);
        $this->assertTrue($lock->get());
        $child = Child::run(sprintf('
            $lock = new RedisLock\Laravel\NativeLock(%s, 10);
            out($lock->block(10) ? "held" : "refused");
            $lock->release();', var_export($this->name, true)));
        $this->waitUntil(fn () => \RedisMutexLock::inspect($this->name)['waiters'] === 1, 5.0, 'the child waits');

        $this->assertTrue($lock->refresh(20), 'a waiter does not make the holder\'s refresh fail');
        $this->assertGreaterThan(19000, $this->redis->pttl($this->key()));
        $this->assertTrue($lock->refresh(0));
        $this->assertHeldAndRenewedFor($lock, 1.5);
        $this->assertTrue($lock->release());
        $this->assertSame('held', $child->readLine(), 'handed over at the release');
        $this->assertSame(0, $child->wait());
        $this->assertSame([], $this->redis->keys());
    }

    public function testIsLockedAndIsOwnedBy(): void
    {
        $lock = new NativeLock($this->name, 10);
        $this->assertFalse($lock->isLocked());
        $this->assertTrue($lock->isOwnedBy(null), 'free');
        $this->assertTrue($lock->get());
        $this->assertTrue($lock->isLocked());
        $this->assertTrue($lock->isOwnedBy($lock->owner()));
        $other = (new NativeLockProvider())->restoreLock($this->name, 'other_owner');
        $this->assertTrue($other->isLocked());
        $this->assertTrue($other->isOwnedBy($lock->owner()));
        $this->assertFalse($other->isOwnedByCurrentProcess());
        $this->assertTrue($lock->release());
        $this->assertFalse($lock->isLocked());
        $this->assertFalse($other->isLocked());
        $this->assertSame([], $this->redis->keys(), 'looking took nothing');
    }

    /** $lock's key holds its owner for $seconds, with a TTL of at most its 1 s lease. */
    private function assertHeldAndRenewedFor(NativeLock $lock, float $seconds): void
    {
        $start = microtime(true);
        while (microtime(true) - $start < $seconds) {
            $this->assertSame($lock->owner(), $this->redis->get($this->key()), 'held past its lease');
            $pttl = $this->redis->pttl($this->key());
            $this->assertGreaterThan(0, $pttl, 'a lease, not a lock without expiry');
            $this->assertLessThanOrEqual(1000, $pttl);
            usleep(100000);
        }
    }

    public function testBlockIsHandedOverWhenAnotherProcessReleases(): void
    {
        $child = $this->childHolding(30, self::childAwaitWaiter($this->name) . '
            usleep(300000);
            out("released at " . microtime(true));
            $lock->release();');
        $holder = $this->holderOwner($child);

        $lock = new NativeLock($this->name, 10);
        $start = microtime(true);
        $this->assertTrue($lock->block(10));
        $acquired = microtime(true);

        $this->assertSame('waiters=1', $child->readLine(), 'block() waited in the FIFO queue, not in a usleep() loop');
        $released = (float) substr($child->readLine(), strlen('released at '));
        $this->assertSame(0, $child->wait());
        $this->assertNotSame($holder, $lock->owner());
        $this->assertGreaterThanOrEqual(0.25, $acquired - $start);
        $this->assertLessThan(5.0, $acquired - $start);
        $this->assertLessThan(1.0, $acquired - $released, 'handed over at the release');
        $this->assertSame($lock->owner(), $this->redis->get($this->key()));
        $this->assertGreaterThan(9000, $this->redis->pttl($this->key()));

        $this->assertTrue($lock->release());
        $this->assertSame([], $this->redis->keys(), 'no queue, lease or wake-up key left');
    }

    public function testBlockWithCallbackReturnsItsResultAndReleases(): void
    {
        $child = $this->childHolding(30, 'usleep(300000); $lock->release(); out("released");');
        $this->holderOwner($child);

        $lock = new NativeLock($this->name, 10);
        $result = $lock->block(10, function () use ($lock) {
            $this->assertSame($lock->owner(), $this->redis->get($this->key()));

            return 42;
        });
        $this->assertSame(42, $result);
        $this->assertSame('released', $child->readLine());
        $this->assertSame(0, $child->wait());
        $this->assertSame([], $this->redis->keys(), 'released after the callback');

        try {
            $lock->block(1, function () {
                throw new \DomainException('boom');
            });
            $this->fail('the callback\'s exception must come through');
        } catch (\DomainException $e) {
        }
        $this->assertSame([], $this->redis->keys(), 'released in finally');
    }

    public function testBlockTimesOut(): void
    {
        $child = $this->childHolding(30, 'in(); $lock->release();');
        $holder = $this->holderOwner($child);

        $lock = new NativeLock($this->name, 10);
        $called = false;
        $start = microtime(true);
        try {
            $lock->block(1, function () use (&$called) {
                $called = true;
            });
            $this->fail('LockTimeoutException expected');
        } catch (LockTimeoutException $e) {
        }
        $elapsed = microtime(true) - $start;
        $this->assertGreaterThanOrEqual(0.95, $elapsed);
        $this->assertLessThan(2.5, $elapsed);
        $this->assertFalse($called);
        $this->assertSame($holder, $this->redis->get($this->key()), 'the holder keeps it');

        $child->send('release');
        $this->assertSame(0, $child->wait());
        $this->assertSame([], $this->redis->keys(), 'the timed-out waiter left nothing behind');
    }

    public function testRestoreLockReleasesFromAnotherProcess(): void
    {
        $provider = new NativeLockProvider();
        $lock = $provider->lock($this->name, 30);
        $this->assertInstanceOf(NativeLock::class, $lock);
        $this->assertTrue($lock->get());

        $child = Child::run(sprintf('
            $lock = (new RedisLock\Laravel\NativeLockProvider())->restoreLock(%s, %s);
            out($lock->owner());
            out($lock->isOwnedByCurrentProcess() ? "owned" : "not owned");
            out(var_export($lock->release(), true));
            out($lock->isOwnedByCurrentProcess() ? "owned" : "not owned");
        ', var_export($this->name, true), var_export($lock->owner(), true)));
        $this->assertSame($lock->owner(), $child->readLine());
        $this->assertSame('owned', $child->readLine());
        $this->assertSame('true', $child->readLine());
        $this->assertSame('not owned', $child->readLine());
        $this->assertSame(0, $child->wait());

        $this->assertSame([], $this->redis->keys());
        $this->assertFalse($lock->isOwnedByCurrentProcess());
        $this->assertFalse($lock->release());
    }

    public function testGetAgainAfterAnotherProcessReleasedIt(): void
    {
        $lock = new NativeLock($this->name, 30);
        $this->assertTrue($lock->get());
        $this->releaseElsewhere($lock);
        $this->assertSame([], $this->redis->keys());

        $this->assertTrue($lock->get(), 'the key is free: its owner takes it again (RedisMutexLock::acquire() for the same $owner)');
        $lock->release();
    }

    public function testBlockAgainAfterAnotherProcessReleasedIt(): void
    {
        $lock = new NativeLock($this->name, 30);
        $this->assertTrue($lock->get());
        $this->releaseElsewhere($lock);
        $this->assertSame([], $this->redis->keys());

        $start = microtime(true);
        try {
            $again = $lock->block(1);
        } catch (LockTimeoutException $e) {
            $this->fail(sprintf('RedisMutexLock::acquire($key, $owner, $ttl, 1.0) returns false after %.3f s for a free key when this process took it earlier for the same $owner and another process released it; expected true at once', microtime(true) - $start));
        }
        $this->assertTrue($again);
        $lock->release();
    }

    public function testForceRelease(): void
    {
        $child = $this->childHolding(30, 'in();');
        $holder = $this->holderOwner($child);

        $lock = new NativeLock($this->name, 10);
        $this->assertFalse($lock->get());
        $this->assertTrue($lock->forceRelease(), 'released whoever held it');
        $this->assertSame([], $this->redis->keys());
        $this->assertFalse($lock->forceRelease(), 'false: it was free');
        $this->assertTrue($lock->get());
        $this->assertNotSame($holder, $this->redis->get($this->key()));
        $lock->release();
        $child->send('done');
        $this->assertSame(0, $child->wait());
    }

    public function testIsOwnedByCurrentProcess(): void
    {
        $lock = new NativeLock($this->name, 10);
        $other = new NativeLock($this->name, 10);
        $this->assertFalse($lock->isOwnedByCurrentProcess(), 'free');
        $this->assertTrue($lock->get());
        $this->assertTrue($lock->isOwnedByCurrentProcess());
        $this->assertFalse($other->isOwnedByCurrentProcess());
        $this->assertTrue((new NativeLock($this->name, 0, $lock->owner()))->isOwnedByCurrentProcess(), 'by owner, as Laravel\'s');
        $lock->release();
        $this->assertFalse($lock->isOwnedByCurrentProcess());
    }

    public function testExpiryOfSecondsLocks(): void
    {
        $lock = new NativeLock($this->name, 1);
        $this->assertTrue($lock->get());
        $this->assertLessThanOrEqual(1000, $this->redis->pttl($this->key()));
        $this->assertGreaterThan(800, $this->redis->pttl($this->key()));
        usleep(600000);
        $this->assertLessThan(500, $this->redis->pttl($this->key()), 'not renewed');
        $this->waitUntil(fn () => !$this->redis->exists($this->key()), 1.0, 'expiry');
        $this->assertFalse($lock->isOwnedByCurrentProcess());

        $other = new NativeLock($this->name, 5);
        $this->assertTrue($other->get(), 'free after its TTL');
        $this->assertFalse($lock->release(), 'the expired owner releases nothing');
        $this->assertSame($other->owner(), $this->redis->get($this->key()));
        $other->release();
    }

    public function testZeroSecondsIsALeaseRenewedWhileTheHolderLives(): void
    {
        $lock = (new NativeLock($this->name, 0))->lease(1);
        $this->assertTrue($lock->get());
        $this->assertLessThanOrEqual(1000, $this->redis->pttl($this->key()));

        $start = microtime(true);
        while (microtime(true) - $start < 2.5) {
            $this->assertSame($lock->owner(), $this->redis->get($this->key()), 'held past its lease');
            usleep(100000);
        }
        $this->assertGreaterThan(0, $this->redis->pttl($this->key()));
        $this->assertLessThanOrEqual(1000, $this->redis->pttl($this->key()));

        $this->assertTrue($lock->release());
        $this->assertSame([], $this->redis->keys());
        usleep(500000);
        $this->assertSame([], $this->redis->keys(), 'no renewal after release');
    }

    public function testZeroSecondsDefaultLease(): void
    {
        $lock = new NativeLock($this->name, 0);
        $this->assertTrue($lock->get());
        $pttl = $this->redis->pttl($this->key());
        $this->assertGreaterThan(NativeLock::LEASE_SECONDS * 1000 - 1000, $pttl);
        $this->assertLessThanOrEqual(NativeLock::LEASE_SECONDS * 1000, $pttl);
        $this->assertSame(30, NativeLock::LEASE_SECONDS);
        $this->assertTrue($lock->release());
    }

    public function testZeroSecondsLockOfAKilledHolderFreesWithinTheLease(): void
    {
        $child = $this->childHolding(0, 'in();', 1);
        $holder = $this->holderOwner($child);
        usleep(1500000);
        $this->assertSame($holder, $this->redis->get($this->key()), 'renewed by the living holder');

        $child->kill(SIGKILL);
        $killed = microtime(true);
        $this->assertSame(128 + SIGKILL, $child->wait());
        $this->waitUntil(fn () => !$this->redis->exists($this->key()), 3.0, 'a killed holder\'s lock freed');
        $this->assertLessThanOrEqual(1.3, microtime(true) - $killed, 'within the 1 s lease');

        $lock = new NativeLock($this->name, 5);
        $this->assertTrue($lock->get());
        $lock->release();
    }

    public function testZeroSecondsLockReleasedElsewhereIsNoLongerItsHolders(): void
    {
        $lock = (new NativeLock($this->name, 0))->lease(1);
        $this->assertTrue($lock->get());
        $this->releaseElsewhere($lock);
        usleep(700000); // a renewal (every third of the lease) finds it gone

        // Released by its owner elsewhere: no loss to report, just no longer held.
        $this->assertFalse($lock->isOwnedByCurrentProcess());
        $this->assertFalse($lock->release());
        $this->assertSame([], $this->redis->keys());
    }

    public function testZeroSecondsGetAgainAfterItWasReleasedElsewhere(): void
    {
        $lock = (new NativeLock($this->name, 0))->lease(1);
        $this->assertTrue($lock->get());
        $this->releaseElsewhere($lock);
        usleep(700000);

        try {
            $again = $lock->get();
        } catch (\RedisLockLostException $e) {
            $this->fail('RedisMutexLock::acquire($key, $owner, $ttl, 0, true) of a free key throws RedisLockLostException ("' . $e->getMessage() . '") when this process\'s renewed lock of the same $owner was lost; expected a fresh acquisition (true), as lock() does for a lost lock');
        }
        $this->assertTrue($again, 'a fresh acquisition of a free key after this process\'s renewed lock was released elsewhere');
        $this->assertSame($lock->owner(), $this->redis->get($this->key()));
        $lock->release();
    }

    public function testOtherServer(): void
    {
        $other = $this->extraServer();
        $before = ini_get('redis_lock.server');
        $lock = (new NativeLockProvider($other->dsn(), 'app:'))->lock($this->name, 10);
        $this->assertSame('app:' . $this->name, $lock->getName());
        $this->assertTrue($lock->get());
        $this->assertSame($before, ini_get('redis_lock.server'));
        $this->assertSame($lock->owner(), $other->client()->get('lock:app:' . $this->name));
        $this->assertSame([], $this->redis->keys());
        $this->assertTrue($lock->isOwnedByCurrentProcess());
        $this->assertTrue($lock->release());
        $this->assertSame([], $other->client()->keys());
    }

    public function testKeyPrefixTakesThePlaceOfTheIniPrefixForItsOwnCallsOnly(): void
    {
        $lock = new NativeLock($this->name, 10, null, null, 'laravel_database_laravel_cache_');
        $this->assertSame('laravel_database_laravel_cache_', $lock->getKeyPrefix());
        $this->assertTrue($lock->get());
        $this->assertSame([$key = 'laravel_database_laravel_cache_' . $this->name], $this->redis->keys());
        $this->assertSame($lock->owner(), $this->redis->get($key));
        $this->assertSame('lock:', ini_get('redis_lock.prefix'), 'restored after the call');
        $this->assertTrue((new NativeLock($this->name, 10))->get(), 'lock:' . $this->name . ' is another key');
        $this->assertTrue($lock->isOwnedByCurrentProcess());
        $this->assertFalse((new NativeLock($this->name, 10, null, null, 'laravel_database_laravel_cache_'))->get());
        $provided = (new NativeLockProvider(null, 'app:', 30, 'kp:'))->lock($this->name, 10);
        $this->assertTrue($provided->get());
        $this->assertSame($provided->owner(), $this->redis->get('kp:app:' . $this->name), 'the provider\'s prefix goes after the key prefix');
        $this->assertTrue($provided->release());
        $this->assertTrue($lock->release());
        $this->assertFalse($this->redis->exists($key));

        // Also restored when the call throws.
        $server = $this->extraServer();
        $elsewhere = new NativeLock($this->name, 10, null, $server->dsn(), '');
        $server->kill();
        try {
            $elsewhere->get();
            $this->fail('RedisLockException expected');
        } catch (\RedisLockException) {
        }
        $this->assertSame('lock:', ini_get('redis_lock.prefix'));
        $this->assertSame($this->mainServer(), ini_get('redis_lock.server'));
    }

    public function testOutageSurfacesAsRedisLockException(): void
    {
        $server = $this->extraServer();
        $lock = new NativeLock($this->name, 10, null, $server->dsn());
        $this->assertTrue($lock->get());
        $server->kill();
        $refused = sprintf('Redis at 127.0.0.1:%d: cannot connect: Connection refused (os error 111)', $server->port);

        foreach ([
            'get' => fn () => $lock->get(),
            'get(callback)' => fn () => $lock->get(fn () => $this->fail('callback run during an outage')),
            'block' => fn () => $lock->block(5),
            'release' => fn () => $lock->release(),
            'forceRelease' => fn () => $lock->forceRelease(),
            'isOwnedByCurrentProcess' => fn () => $lock->isOwnedByCurrentProcess(),
        ] as $call => $run) {
            $start = microtime(true);
            try {
                $run();
                $this->fail("$call: RedisLockException expected");
            } catch (\RedisLockException $e) {
                $this->assertSame($refused, $e->getMessage(), $call);
                $this->assertNotInstanceOf(LockTimeoutException::class, $e);
            }
            $this->assertLessThan(2.0, microtime(true) - $start, "$call fails at once");
        }
    }

    public function testHungServerSurfacesAsRedisLockException(): void
    {
        $server = $this->extraServer();
        ini_set('redis_lock.read_timeout', '0.3');
        $lock = new NativeLock($this->name, 10, null, $server->dsn());
        $this->assertTrue($lock->get());
        $server->freeze();
        try {
            $lock->release();
            $this->fail('RedisLockException expected');
        } catch (\RedisLockException $e) {
            $this->assertSame(sprintf('Redis at 127.0.0.1:%d: no reply within 0.3 s', $server->port), $e->getMessage());
        }
        $server->thaw();
        $this->assertTrue($lock->release());
    }

    /** Another process releases $lock, knowing its owner (restoreLock()). */
    private function releaseElsewhere(NativeLock $lock): void
    {
        $child = Child::run(sprintf('out(var_export((new RedisLock\Laravel\NativeLockProvider())->restoreLock(%s, %s)->release(), true));',
            var_export($this->name, true), var_export($lock->owner(), true)));
        $this->assertSame('true', $child->readLine());
        $child->wait();
    }
}
