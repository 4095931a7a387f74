<?php
/**
 * Not a usable lock: owner_floor.php with RedisMutexLock's third round trip
 * (a hand-off is a grant of 100 ms that the woken waiter confirms before it
 * enters). See owner_floor.php.
 */

declare(strict_types=1);

namespace Bench;

require_once __DIR__ . '/owner_floor.php';

return fn (string $host, int $port): BlockingContender => new OwnerFloor($host, $port, true);
