<?php

declare(strict_types=1);

namespace RedisLock\Tests\Symfony;

use RedisLock\Internal\Server;
use RedisLock\Symfony\RedisLockStore;
use RedisLock\Tests\Support\Child;
use RedisLock\Tests\Support\TestCase;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\Store\RedisStore;

/**
 * The key prefix of RedisLockStore: with '' it locks the resource name
 * itself, the key of symfony's own RedisStore (a sorted set there), so that
 * during a rolling deploy old code (symfony's store) and new code (ours)
 * exclude each other on the same resource, both ways.
 */
final class KeyCompatibilityTest extends TestCase
{
    private LockFactory $symfony;
    private LockFactory $ours;

    protected function setUp(): void
    {
        parent::setUp();
        if (extension_loaded('redis')) {
            $redis = new \Redis();
            $redis->connect('127.0.0.1', (int) getenv('REDIS_LOCK_TEST_PORT'), 2.0);
        } elseif (is_file($predis = (stream_resolve_include_path('Predis/autoload.php') ?: '/usr/share/php/Predis/autoload.php'))) {
            require_once $predis;
            $redis = new \Predis\Client(['host' => '127.0.0.1', 'port' => (int) getenv('REDIS_LOCK_TEST_PORT')]);
        } else {
            $this->markTestSkipped('neither phpredis nor predis is installed (apt-get install php-redis): symfony\'s RedisStore has no client');
        }
        $this->symfony = new LockFactory(new RedisStore($redis));
        $this->ours = new LockFactory(new RedisLockStore(null, 300.0, false, ''));
    }

    private function waiters(): int
    {
        return Server::call(null, fn (): int => \RedisMutexLock::inspect($this->name)['waiters'], '');
    }

    public function testTheKeyIsTheResourceName(): void
    {
        $this->assertSame('', (new RedisLockStore(null, 300.0, false, ''))->getKeyPrefix());
        $this->assertNull((new RedisLockStore())->getKeyPrefix(), 'null: redis_lock.prefix');

        $theirs = $this->symfony->createLock($this->name, 10);
        $this->assertTrue($theirs->acquire());
        $this->assertSame([$this->name], $this->redis->keys('res-*'), 'symfony\'s RedisStore: the resource name, no prefix');
        $this->assertSame([], $this->redis->keys('lock:*'));
        $this->assertSame('zset', $this->redis->command('TYPE', $this->name));
        $theirs->release();

        $ours = $this->ours->createLock($this->name, 10);
        $this->assertTrue($ours->acquire());
        $this->assertSame([$this->name], $this->redis->keys('res-*'), 'ours: the same key');
        $this->assertSame([], $this->redis->keys('lock:*'));
        $this->assertSame('string', $this->redis->command('TYPE', $this->name));
        $ours->release();
        $this->assertFalse($this->redis->exists($this->name));
        $this->assertSame('lock:', ini_get('redis_lock.prefix'), 'the INI setting is left as it was');
    }

    public function testOursIsRefusedWhileSymfonysStoreHoldsTheResourceAndGetsItAfterItsRelease(): void
    {
        $theirs = $this->symfony->createLock($this->name, 10);
        $this->assertTrue($theirs->acquire());

        $this->assertFalse($this->ours->createLock($this->name, 10)->acquire(), 'refused while symfony\'s store holds it');
        $this->assertFalse($this->ours->createLock($this->name, 10)->acquireRead(), 'acquireRead() too (taken exclusively)');
        $this->assertSame('zset', $this->redis->command('TYPE', $this->name), 'symfony\'s lock is untouched');
        $this->assertTrue($theirs->isAcquired());

        // A blocking acquire (another process, the new code) waits and gets it after symfony's release.
        $child = Child::run(sprintf('
            $lock = (new Symfony\Component\Lock\LockFactory(new RedisLock\Symfony\RedisLockStore(null, 300.0, false, "")))->createLock(%s, 10, false);
            out($lock->acquire(true) ? "held" : "refused");
            in();
            $lock->release();
            out("released");', var_export($this->name, true)));
        $this->waitUntil(fn () => $this->waiters() === 1, 5.0, 'the child waits');
        $theirs->release();
        $released = microtime(true);
        $this->assertSame('held', $child->readLine(), 'the waiter got the resource after symfony\'s release');
        $this->assertLessThan(1.0, microtime(true) - $released);
        $this->assertSame('string', $this->redis->command('TYPE', $this->name));

        // While the new code holds it, symfony's store is refused.
        $this->assertFalse($this->symfony->createLock($this->name, 10)->acquire(), 'symfony\'s lock is refused while ours is held');
        $this->assertFalse($this->symfony->createLock($this->name, 10)->acquireRead(), 'symfony\'s read lock too');
        $child->send('release');
        $this->assertSame('released', $child->readLine());
        $this->assertSame(0, $child->wait());

        $again = $this->symfony->createLock($this->name, 10);
        $this->assertTrue($again->acquire(), 'symfony\'s lock after our release');
        $again->release();
        $this->assertFalse($this->redis->exists($this->name));
    }

    public function testSymfonysStoreIsRefusedWhileOursHoldsTheResourceAndGetsItAfterOurRelease(): void
    {
        $ours = $this->ours->createLock($this->name, 10);
        $this->assertTrue($ours->acquire());

        $theirs = $this->symfony->createLock($this->name, 10);
        $this->assertFalse($theirs->acquire(), 'symfony\'s script returns false on our string key');
        $this->assertFalse($theirs->acquireRead());
        $this->assertTrue($ours->isAcquired(), 'our lock is untouched');

        // symfony's blocking acquire (old code) polls until our release.
        $child = Child::run(sprintf('
            $redis = new Redis(); $redis->connect("127.0.0.1", %d);
            $lock = (new Symfony\Component\Lock\LockFactory(new Symfony\Component\Lock\Store\RedisStore($redis)))->createLock(%s, 10, false);
            out("waiting");
            out($lock->acquire(true) ? "held" : "refused");
            $lock->release();', (int) getenv('REDIS_LOCK_TEST_PORT'), var_export($this->name, true)));
        if (!extension_loaded('redis')) {
            $child->kill();
            $ours->release();
            $this->markTestSkipped('the blocking half needs phpredis in the child process');
        }
        $this->assertSame('waiting', $child->readLine());
        usleep(300_000);
        $this->assertTrue($ours->isAcquired(), 'still ours while symfony polls');
        $ours->release();
        $this->assertSame('held', $child->readLine(2.0), 'symfony\'s store got it after our release');
        $this->assertSame(0, $child->wait());
        $this->assertFalse($this->redis->exists($this->name));
    }
}
