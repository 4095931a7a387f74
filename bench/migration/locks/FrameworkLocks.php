<?php
/**
 * What the framework locks share, whoever's store is under them: symfony's
 * LockFactory acquire(true)/release() and Laravel's block()/release(), the way
 * applications call them.
 */

declare(strict_types=1);

namespace Bench\Migration;

use Illuminate\Contracts\Cache\Lock as LaravelLockContract;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Symfony\Component\Lock\Exception\LockReleasingException;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\LockInterface;

trait SymfonyFactoryLocking
{
    private LockFactory $factory;
    private ?LockInterface $lock = null;

    /** $name: the resource as the store is given it. autoRelease off: the worker releases explicitly, as the others do. */
    private function acquireNamed(string $name): bool
    {
        $this->lock = $this->factory->createLock($name, $this->o->ttl, false);
        return $this->lock->acquire(true);
    }

    public function release(): bool
    {
        try {
            $this->lock->release();
            return true;
        } catch (LockReleasingException) {
            return false; // symfony: the key is still there after the delete, so it was not ours
        }
    }
}

trait LaravelBlocking
{
    private ?LaravelLockContract $lock = null;

    private function block(LaravelLockContract $lock): bool
    {
        $this->lock = $lock;
        try {
            return $lock->block($this->o->timeout) === true;
        } catch (LockTimeoutException) {
            return false;
        }
    }

    public function release(): bool
    {
        return $this->lock->release();
    }
}
