<?php

/*
 * Vendored from laravel/framework (https://github.com/laravel/framework),
 * tests/Cache/CacheArrayStoreTest.php, branch 13.x at commit bd71b45fbb7e672957bf6ff61baddefe15fbca6a
 * (v13.26.1 and later; the newest upstream source available here: Debian sid's
 * php-laravel-framework 13.31 installs no tests). MIT License, Copyright (c)
 * Taylor Otwell (see laravel/framework's LICENSE.md).
 *
 * Only its lock tests (every test whose name has "Lock"), in upstream's order,
 * run against the redis_lock store: `new ArrayStore` makes a
 * Support\RedisLockArrayStore (a NativeLockStore on the suite's redis-server),
 * imported under upstream's name so the bodies stay unchanged; namespace and
 * class name changed (CacheArrayStoreLockTest), parent Support\FrameworkTestCase
 * (it empties Redis before each test; the stores of one upstream test share
 * it as ArrayStore's locks share one ArrayStore). The tests that cannot apply
 * are skipped, with the reason, by Support/Skips.php.
 */

namespace RedisLock\Tests\Upstream\Laravel;

use Illuminate\Support\Carbon;
use RedisLock\Tests\Upstream\Laravel\Support\FrameworkTestCase as TestCase;
use RedisLock\Tests\Upstream\Laravel\Support\RedisLockArrayStore as ArrayStore;

class CacheArrayStoreLockTest extends TestCase
{
    public function testLocksCanBeFlushed()
    {
        $store = new ArrayStore;
        $store->lock('foo', 10);
        $store->lock('bar', 10);
        $result = $store->flushLocks();
        $this->assertTrue($result);
        $this->assertNull($store->get('foo'));
        $this->assertNull($store->get('bar'));
        $this->assertEmpty($store->locks);
    }

    public function testCannotAcquireLockTwice()
    {
        $store = new ArrayStore;
        $lock = $store->lock('foo', 10);

        $this->assertTrue($lock->acquire());
        $this->assertFalse($lock->acquire());
    }

    public function testCanAcquireLockAgainAfterExpiry()
    {
        Carbon::setTestNow($now = Carbon::now());

        $store = new ArrayStore;
        $lock = $store->lock('foo', 10);
        $lock->acquire();
        Carbon::setTestNow($now->addSeconds(10));

        $this->assertTrue($lock->acquire());
    }

    public function testLockExpirationLowerBoundary()
    {
        Carbon::setTestNow($now = Carbon::now());

        $store = new ArrayStore;
        $lock = $store->lock('foo', 10);
        $lock->acquire();
        Carbon::setTestNow($now->addSeconds(10)->subMicrosecond());

        $this->assertFalse($lock->acquire());
    }

    public function testLockWithNoExpirationNeverExpires()
    {
        $store = new ArrayStore;
        $lock = $store->lock('foo');
        $lock->acquire();
        Carbon::setTestNow(Carbon::now()->addCentury());

        $this->assertFalse($lock->acquire());
    }

    public function testCanAcquireLockAfterRelease()
    {
        $store = new ArrayStore;
        $lock = $store->lock('foo', 10);
        $lock->acquire();

        $this->assertTrue($lock->release());
        $this->assertTrue($lock->acquire());
    }

    public function testAnotherOwnerCannotReleaseLock()
    {
        $store = new ArrayStore;
        $owner = $store->lock('foo', 10);
        $wannabeOwner = $store->lock('foo', 10);
        $owner->acquire();

        $this->assertFalse($wannabeOwner->release());
    }

    public function testAnotherOwnerCanForceReleaseALock()
    {
        $store = new ArrayStore;
        $owner = $store->lock('foo', 10);
        $wannabeOwner = $store->lock('foo', 10);
        $owner->acquire();
        $wannabeOwner->forceRelease();

        $this->assertTrue($wannabeOwner->acquire());
    }

    public function testReleasingLockAfterAlreadyForceReleasedByAnotherOwnerFails()
    {
        $store = new ArrayStore;
        $owner = $store->lock('foo', 10);
        $wannabeOwner = $store->lock('foo', 10);
        $owner->acquire();
        $wannabeOwner->forceRelease();

        $this->assertFalse($wannabeOwner->release());
    }

    public function testOwnerStatusCanBeCheckedAfterRestoringLock()
    {
        $store = new ArrayStore;
        $firstLock = $store->lock('foo', 10);

        $this->assertTrue($firstLock->get());
        $owner = $firstLock->owner();

        $secondLock = $store->restoreLock('foo', $owner);
        $this->assertTrue($secondLock->isOwnedByCurrentProcess());
    }

    public function testOtherOwnerDoesNotOwnLockAfterRestore()
    {
        $store = new ArrayStore;
        $firstLock = $store->lock('foo', 10);

        $this->assertTrue($firstLock->get());

        $secondLock = $store->restoreLock('foo', 'other_owner');

        $this->assertFalse($secondLock->isOwnedByCurrentProcess());
    }

    public function testExpiredLockCannotBeRefreshedByPreviousOwner()
    {
        Carbon::setTestNow($now = Carbon::now());

        $store = new ArrayStore;
        $lock = $store->lock('foo', 10);
        $this->assertTrue($lock->get());

        Carbon::setTestNow($now->addSeconds(10)->addSecond());

        $this->assertFalse($lock->refresh(20));
    }

    public function testRestoringNonExistingLockDoesNotOwnAnything()
    {
        $store = new ArrayStore;
        $firstLock = $store->restoreLock('foo', 'owner');

        $this->assertFalse($firstLock->isOwnedByCurrentProcess());
    }
}
